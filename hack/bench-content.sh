#!/usr/bin/env bash
# Bulk content for `make bench` (hack/bench.sh): brings a site to N published
# posts with one SQL statement each, never through the API.
#
#   hack/bench-content.sh siteplane N DSN    add N-200 posts to a stack's content
#                                            schema (the demo seed has 200)
#   hack/bench-content.sh wordpress N HOST [THEME]
#                                            make HOST (a Host header) a copy of
#                                            the WordPress peer with N posts
#                                            (and THEME active instead of the
#                                            peer's: hack/bench-theme.sh)
#
# Generated posts are older than the seeded ones (page 1 of every listing is
# unchanged), carry a category and a tag (round robin over the site's, so
# the category filter has about N/categories matches) and ~600 bytes of
# paragraphs; no word of theirs is "demo" or "peer", so a search for the
# seeded posts' title word matches the same 200 posts at any N. On
# Siteplane, every other post also has a second tag and every fourth three
# approved comments (one a reply), about what a blog has (issue 31's scaling
# table: 1,000,000 posts, 1,500,000 term links, 750,000 comments); the
# comment counts of the posts are set as the comment writes keep them.
#
# WordPress: the peer on 127.0.0.1:8081 is left as it is. Its database (the
# one /var/lib/wp-peer/active.env names: wp_peer69 for 6.9, wp_peer for 6.1)
# is copied to wp_HOST (dots and dashes become _: wp_siteplane_bench for the
# default host), and the posts are added there, so that two benches with
# different hosts never share a database. Requests
# whose Host is HOST are served from that copy:
# - 6.1 (Debian's package): /etc/wordpress/config-HOST.php, a copy of the
#   peer's config naming that database;
# - 6.9 (the unpacked tarball): a copy of the peer's tree,
#   /var/lib/wp-peer/bench-HOST, whose wp-config.php names that database
#   and HOST, and an nginx server block for HOST on the peer's port
#   (/etc/nginx/sites-enabled/wp-bench-HOST.conf; nginx reloaded).
# Each call recopies, so posts created by a previous bench are gone. Needs
# root (MariaDB over its socket, /etc/wordpress, nginx).
set -euo pipefail
. "$(dirname "$0")/lib/wp-copy.sh"
kind=${1:?siteplane or wordpress}
posts=${2:?number of posts}
[[ $posts =~ ^[0-9]+$ ]] || { echo "bench-content: $posts is no number" >&2; exit 2; }

content_sql() { # $1, $2: SQL for two numbers of the post (as text)
  printf '%s' "'<!-- wp:paragraph -->' || chr(10) || '<p>' || repeat('lorem ipsum dolor sit amet consectetur ', 6) || 'number ' || $1 || '</p>' || chr(10) || '<!-- /wp:paragraph -->' || chr(10) || chr(10) || '<!-- wp:paragraph -->' || chr(10) || '<p>' || repeat('sed do eiusmod tempor incididunt ut labore ', 6) || 'next ' || $2 || '</p>' || chr(10) || '<!-- /wp:paragraph -->'"
}

case $kind in
siteplane)
  dsn=${3:?database URL}
  add=$((posts - 200))
  if ((add <= 0)); then exit 0; fi
  psql=$(command -v psql || ls /usr/lib/postgresql/*/bin/psql 2>/dev/null | sort -V | tail -1)
  SECONDS=0
  # The search index is rebuilt once after the insert (much faster than
  # growing it row by row); its definition is the migration's.
  "$psql" -q -v ON_ERROR_STOP=1 "$dsn" <<SQL
SET search_path = content;
SET maintenance_work_mem = '256MB';
SELECT COALESCE((SELECT indexdef FROM pg_indexes WHERE schemaname = 'content' AND indexname = 'posts_search_trgm'),
  'SELECT 1') AS search_index \gset
DROP INDEX IF EXISTS posts_search_trgm;
WITH cats AS (SELECT array_agg(id ORDER BY id) AS a FROM terms WHERE taxonomy = 'category'),
tags AS (SELECT array_agg(id ORDER BY id) AS a FROM terms WHERE taxonomy = 'post_tag'),
ins AS (
  INSERT INTO posts (type, status, author, date_gmt, modified_gmt, slug, title, content, excerpt, comment_status, ping_status, format,
    comment_count)
  SELECT 'post', 'publish', 1, d, d, 'bench-post-' || g, 'Bench post ' || g,
    $(content_sql "g::text" "(g + 1)::text"), '', 'open', 'open', 'standard', CASE WHEN g % 4 = 0 THEN 3 ELSE 0 END
  FROM generate_series(1, $add) g,
  LATERAL (SELECT date_trunc('second', now() AT TIME ZONE 'UTC') - interval '60 days' - g * interval '1 minute' AS d) t
  RETURNING id, type, status, date_gmt)
INSERT INTO term_relationships (post_id, term_id, post_type, post_status, post_date)
SELECT i.id, c.a[1 + i.id % cardinality(c.a)], i.type, i.status, i.date_gmt FROM ins i, cats c
UNION ALL
SELECT i.id, t.a[1 + i.id % cardinality(t.a)], i.type, i.status, i.date_gmt FROM ins i, tags t
UNION ALL
SELECT i.id, t.a[1 + (i.id + 1) % cardinality(t.a)], i.type, i.status, i.date_gmt FROM ins i, tags t
WHERE i.id % 2 = 0 AND cardinality(t.a) > 1;
-- comments: three on every fourth bench post, the second a reply to the
-- first (inserted from the first ones: an UPDATE joining the fresh,
-- unanalysed table with itself was planned as a nested loop). comment_counts
-- is kept by statement-level triggers (migration 0425): one upsert per
-- statement, however many comments it writes.
INSERT INTO comments (post, parent, author_name, author_email, date_gmt, content, status)
SELECT p.id, 0, 'Reader ' || k, 'reader' || k || '@example.test', p.date_gmt + k * interval '1 hour',
  'Comment ' || k || ' on bench post ' || p.id, 'approved'
FROM posts p, generate_series(1, 3, 2) k WHERE p.comment_count = 3 AND p.slug LIKE 'bench-post-%';
INSERT INTO comments (post, parent, author_name, author_email, date_gmt, content, status)
SELECT f.post, f.id, 'Reader 2', 'reader2@example.test', f.date_gmt + interval '1 hour', 'Comment 2 on bench post ' || f.post, 'approved'
FROM comments f WHERE f.content LIKE 'Comment 1 on bench post %' AND f.parent = 0;
:search_index;
VACUUM ANALYZE posts;
VACUUM ANALYZE term_relationships;
VACUUM ANALYZE comments;
-- the load's dirty pages written now, not by a checkpoint in the middle of
-- a measured target (once 2.3 ms of PostgreSQL CPU per request on the last
-- target of bench-theme at 100,000 posts, 0.1 ms measured again after it)
CHECKPOINT;
SQL
  echo "bench-content: added $add posts to Siteplane in ${SECONDS} s" >&2
  ;;
wordpress)
  host=${3:?Host name}
  theme=${4:-}
  [[ $host =~ ^[a-z0-9.-]+$ ]] || { echo "bench-content: bad host $host" >&2; exit 2; }
  [[ $theme =~ ^[a-z0-9_-]*$ ]] || { echo "bench-content: bad theme $theme" >&2; exit 2; }
  [[ $(id -u) -eq 0 ]] || { echo "bench-content: copying the WordPress peer needs root" >&2; exit 1; }
  db=wp_${host//[.-]/_}
  WP_PEER_MODE=debian WP_PEER_DB=wp_peer WP_PEER_ROOT=
  [[ -r /var/lib/wp-peer/active.env ]] && . /var/lib/wp-peer/active.env
  peer_conf=/etc/wordpress/config-127.0.0.1.php
  if [[ $WP_PEER_MODE == tarball ]]; then peer_conf=$WP_PEER_ROOT/wp-config.php; fi
  [[ -r $peer_conf ]] || { echo "bench-content: no $peer_conf (is the peer set up?)" >&2; exit 1; }
  SECONDS=0
  wp_copy_database "$WP_PEER_DB" "$db"
  add=$((posts - $(mysql -N "$db" -e "SELECT count(*) FROM wp_posts WHERE post_type = 'post' AND post_status = 'publish'")))
  if ((add > 0)); then
    mysql "$db" <<SQL
SET sql_mode = 'PIPES_AS_CONCAT';
INSERT INTO wp_posts (post_author, post_date, post_date_gmt, post_content, post_title, post_excerpt, post_status,
  comment_status, ping_status, post_password, post_name, to_ping, pinged, post_modified, post_modified_gmt,
  post_content_filtered, post_parent, guid, menu_order, post_type, post_mime_type, comment_count)
SELECT 1, d, d, $(content_sql "seq" "seq + 1" | sed 's/chr(10)/char(10)/g'), 'Bench post ' || seq, '', 'publish',
  'open', 'open', '', 'bench-post-' || seq, '', '', d, d, '', 0, 'http://$host/?p=bench-' || seq, 0, 'post', '', 0
FROM (SELECT seq, TIMESTAMP('2023-11-01') - INTERVAL seq MINUTE AS d FROM seq_1_to_$add) s;
INSERT INTO wp_term_relationships (object_id, term_taxonomy_id, term_order)
SELECT p.ID, c.term_taxonomy_id, 0 FROM wp_posts p JOIN (
  SELECT term_taxonomy_id, taxonomy, ROW_NUMBER() OVER (PARTITION BY taxonomy ORDER BY term_taxonomy_id) - 1 AS k,
    COUNT(*) OVER (PARTITION BY taxonomy) AS n
  FROM wp_term_taxonomy WHERE taxonomy IN ('category', 'post_tag')) c ON c.k = p.ID % c.n
WHERE p.post_name LIKE 'bench-post-%';
UPDATE wp_term_taxonomy tt SET count = (SELECT count(*) FROM wp_term_relationships r
  JOIN wp_posts p ON p.ID = r.object_id AND p.post_status = 'publish' WHERE r.term_taxonomy_id = tt.term_taxonomy_id)
WHERE taxonomy IN ('category', 'post_tag');
ANALYZE TABLE wp_posts, wp_term_relationships, wp_term_taxonomy;
SQL
  fi
  if [[ -n $theme ]]; then
    # WordPress reads the active theme from these two options (as
    # hack/wp-theme-copy.sh switches its copy)
    [[ -f ${WP_PEER_ROOT:-/usr/share/wordpress}/wp-content/themes/$theme/style.css ]] ||
      { echo "bench-content: the peer has no theme $theme" >&2; exit 1; }
    mysql "$db" -e "UPDATE wp_options SET option_value = '$theme' WHERE option_name IN ('template', 'stylesheet')"
  fi
  if [[ $WP_PEER_MODE == tarball ]]; then
    wp_copy_tree bench "$host" "$db" "http://$host"
  else
    wp_copy_config "$peer_conf" "/etc/wordpress/config-$host.php" "$db" "http://$host"
  fi
  echo "bench-content: WordPress copy ($db, Host: $host${theme:+, theme $theme}) with $posts posts in ${SECONDS} s" >&2
  ;;
*)
  echo "bench-content: siteplane or wordpress, not $kind" >&2
  exit 2
  ;;
esac
