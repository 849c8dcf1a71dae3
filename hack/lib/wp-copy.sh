# Copies of the WordPress peer (../shared/peers/wordpress) that serve another
# Host on the peer's port, for hack/bench-content.sh (more posts) and
# hack/wp-theme-copy.sh (another theme). The peer itself is only read.
# Needs root (MariaDB over its socket, nginx). Source it; set -e applies.

# wp_copy_database SRC DST: DST becomes a copy of the peer's database SRC
# that the peer's MariaDB user may use.
wp_copy_database() {
  local src=$1 dst=$2
  mysql -e "DROP DATABASE IF EXISTS $dst; CREATE DATABASE $dst DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_520_ci;
    GRANT ALL PRIVILEGES ON $dst.* TO 'wp_peer'@'localhost';"
  mysqldump --single-transaction "$src" | mysql "$dst"
}

# wp_copy_config SRC DST DB URL: writes DST, the peer's config SRC naming DB
# and URL instead of the peer's database and address.
wp_copy_config() {
  local src=$1 dst=$2 db=$3 url=$4 tmp
  tmp=$(mktemp)
  sed -e "s/define( *'DB_NAME', *'[^']*' *);/define( 'DB_NAME', '$db' );/" \
    -e "s#http://127.0.0.1:8081#$url#g" "$src" >"$tmp"
  if ! grep -q "'DB_NAME', '$db'" "$tmp"; then
    rm -f "$tmp"
    echo "wp-copy: could not point a copy of $src at $db" >&2
    return 1
  fi
  install -o root -g www-data -m 0640 "$tmp" "$dst"
  rm -f "$tmp"
}

# wp_copy_tree KIND HOST DB URL: a copy of the 6.9 peer's tree
# ($WP_PEER_ROOT, from /var/lib/wp-peer/active.env) at
# /var/lib/wp-peer/KIND-HOST whose wp-config.php names DB and URL, served by
# nginx for HOST on the peer's port (/etc/nginx/sites-enabled/wp-KIND-HOST.conf).
wp_copy_tree() {
  local kind=$1 host=$2 db=$3 url=$4
  local tree=/var/lib/wp-peer/$kind-$host site=/etc/nginx/sites-enabled/wp-$kind-$host.conf
  rm -rf "$tree"
  cp -a "$WP_PEER_ROOT" "$tree"
  wp_copy_config "$WP_PEER_ROOT/wp-config.php" "$tree/wp-config.php" "$db" "$url"
  sed -e "s#server_name 127.0.0.1;#server_name $host;#" \
    -e "s#root  *$WP_PEER_ROOT;#root $tree;#" -e "s#wp-peer\.\(access\|error\)\.log#wp-$kind.\1.log#" \
    /etc/nginx/sites-enabled/wp-peer.conf >"$site"
  if ! grep -q "server_name $host;" "$site" || ! grep -q "root $tree;" "$site"; then
    rm -f "$site"
    echo "wp-copy: could not write an nginx server for $host" >&2
    return 1
  fi
  nginx -t -q && nginx -s reload
}
