#!/usr/bin/env bash
# A copy of the WordPress peer that renders another theme, for comparisons
# that must not change the peer itself (others compare against it as it is).
#
#   hack/wp-theme-copy.sh HOST THEME    serve http://HOST:8081/ from a copy of
#                                       the peer with THEME active; prints
#                                       that URL
#
# The peer (/var/lib/wp-peer/active.env; only the 6.9 tarball layout) is read,
# never written: its database is dumped into wp_theme_<host> (dots and dashes
# become _), its tree is copied to /var/lib/wp-peer/theme-HOST with a
# wp-config.php naming that database and http://HOST:8081 as home and site
# URL, and /etc/nginx/sites-enabled/wp-theme-HOST.conf serves HOST on the
# peer's port (nginx reloaded). THEME is then the copy's template and
# stylesheet. Idempotent: each run recopies, so what a previous comparison
# created in the copy is gone. A client resolves HOST to 127.0.0.1 itself
# (curl --resolve, Chromium --host-resolver-rules). Needs root (MariaDB over
# its socket, nginx), as hack/bench-content.sh's wordpress copy does.
set -euo pipefail
host=${1:?Host name, e.g. tt3.wp.test}
theme=${2:?theme directory name, e.g. twentytwentythree}
[[ $host =~ ^[a-z0-9.-]+$ ]] || { echo "wp-theme-copy: bad host $host" >&2; exit 2; }
[[ $theme =~ ^[a-z0-9_-]+$ ]] || { echo "wp-theme-copy: bad theme $theme" >&2; exit 2; }
[[ $(id -u) -eq 0 ]] || { echo "wp-theme-copy: copying the WordPress peer needs root" >&2; exit 1; }
WP_PEER_MODE= WP_PEER_ROOT= WP_PEER_DB=
[[ -r /var/lib/wp-peer/active.env ]] && . /var/lib/wp-peer/active.env
[[ $WP_PEER_MODE == tarball && -r $WP_PEER_ROOT/wp-config.php ]] ||
  { echo "wp-theme-copy: the 6.9 peer is not set up (/var/lib/wp-peer/active.env)" >&2; exit 1; }
[[ -f $WP_PEER_ROOT/wp-content/themes/$theme/style.css ]] ||
  { echo "wp-theme-copy: the peer has no theme $theme" >&2; exit 1; }
db=wp_theme_${host//[.-]/_}
tree=/var/lib/wp-peer/theme-$host
site=/etc/nginx/sites-enabled/wp-theme-$host.conf
url=http://$host:8081
SECONDS=0

mysql -e "DROP DATABASE IF EXISTS $db; CREATE DATABASE $db DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_520_ci;
  GRANT ALL PRIVILEGES ON $db.* TO 'wp_peer'@'localhost';"
mysqldump --single-transaction "$WP_PEER_DB" | mysql "$db"
# WordPress reads the theme from these two options; home and siteurl are
# overridden by the config's WP_HOME / WP_SITEURL but kept consistent.
mysql "$db" -e "UPDATE wp_options SET option_value = '$theme' WHERE option_name IN ('template', 'stylesheet');
  UPDATE wp_options SET option_value = '$url' WHERE option_name IN ('home', 'siteurl');"

rm -rf "$tree"
cp -a "$WP_PEER_ROOT" "$tree"
tmp=$(mktemp)
sed -e "s/define( *'DB_NAME', *'[^']*' *);/define( 'DB_NAME', '$db' );/" \
  -e "s#http://127.0.0.1:8081#$url#g" "$WP_PEER_ROOT/wp-config.php" >"$tmp"
grep -q "'DB_NAME', '$db'" "$tmp" && grep -q "'$url'" "$tmp" ||
  { rm -f "$tmp"; echo "wp-theme-copy: could not point a copy of wp-config.php at $db and $url" >&2; exit 1; }
install -o root -g www-data -m 0640 "$tmp" "$tree/wp-config.php"
rm -f "$tmp"

sed -e "s#server_name 127.0.0.1;#server_name $host;#" \
  -e "s#root  *$WP_PEER_ROOT;#root $tree;#" -e "s#wp-peer\.\(access\|error\)\.log#wp-theme.\1.log#" \
  /etc/nginx/sites-enabled/wp-peer.conf >"$site"
grep -q "server_name $host;" "$site" && grep -q "root $tree;" "$site" ||
  { rm -f "$site"; echo "wp-theme-copy: could not write an nginx server for $host" >&2; exit 1; }
nginx -t -q && nginx -s reload

# nginx reloads in the background: wait until the copy answers as itself
for _ in $(seq 50); do
  if curl -fsS --resolve "$host:8081:127.0.0.1" "$url/wp-json/" 2>/dev/null | grep -q "\"home\":\"${url//\//\\\\/}\""; then
    echo "wp-theme-copy: $url is the peer with $theme ($db, $tree) in ${SECONDS} s" >&2
    echo "$url"
    exit 0
  fi
  sleep 0.2
done
echo "wp-theme-copy: $url does not answer" >&2
exit 1
