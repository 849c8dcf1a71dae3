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
. "$(dirname "$0")/lib/wp-copy.sh"
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
url=http://$host:8081
SECONDS=0

wp_copy_database "$WP_PEER_DB" "$db"
# WordPress reads the theme from these two options; home and siteurl are
# overridden by the config's WP_HOME / WP_SITEURL but kept consistent.
mysql "$db" -e "UPDATE wp_options SET option_value = '$theme' WHERE option_name IN ('template', 'stylesheet');
  UPDATE wp_options SET option_value = '$url' WHERE option_name IN ('home', 'siteurl');"

wp_copy_tree theme "$host" "$db" "$url"

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
