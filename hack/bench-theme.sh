#!/usr/bin/env bash
# Issue 30's speed table (docs/website.md#beside-wordpress-the-same-theme-at-100000-posts):
# the website rendering a WordPress block theme (Twenty Twenty-Three) on
# Siteplane and on a copy of the WordPress peer with the same theme active,
# both at BENCH_POSTS posts, uncached, in one run on one machine. Pages: the
# front page, a post's page without comments, the same kind of post with
# fifty approved comments (ten threads of a comment and four replies) and a
# category archive; each side's server CPU per request from /proc
# (Siteplane: gateway, content, media, marketplace, PostgreSQL; WordPress:
# php-fpm, mariadbd, nginx). The spread-* rows measure the same page kinds
# over many pages, shuffled (up to 20,000 posts, front pages from 2, every
# category's archive pages): a single URL asked again and again lets
# Siteplane answer from what its website snapshot keeps until the next
# write, which WordPress without an object cache does not do; the spread
# rows are the uncached figures. Run by `make bench` when BENCH_WORDPRESS_URL is
# set (BENCH_THEME=0 skips it), or alone:
#
#   BENCH_POSTS=100000 hack/bench-theme.sh
#
# Variables: BENCH_POSTS (default 100000), BENCH_THEME (twentytwentythree: a
# theme directory of the peer's tree, which Siteplane loads too, so both
# sides render the same files), BENCH_THEME_DURATION (per page, default
# 10s), BENCH_THEME_CONCURRENCY (8), BENCH_WORDPRESS_URL (default
# http://127.0.0.1:8081), BENCH_THEME_WORDPRESS_HOST (the copy's Host,
# default siteplane-bench-theme; hack/bench-content.sh). The peer itself is
# never written: the posts, the theme switch and the comments go into the
# copy. Results: .cache/bench-theme/theme.md and the two runs' JSON. Needs
# root (the WordPress copy). Exit status: loadgen's.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
posts=${BENCH_POSTS:-100000}
theme=${BENCH_THEME:-twentytwentythree}
duration=${BENCH_THEME_DURATION:-10s}
concurrency=${BENCH_THEME_CONCURRENCY:-8}
wp_url=${BENCH_WORDPRESS_URL:-http://127.0.0.1:8081}
wp_host=${BENCH_THEME_WORDPRESS_HOST:-siteplane-bench-theme}
[[ $posts =~ ^[0-9]+$ ]] && ((posts >= 200)) || { echo "bench-theme: BENCH_POSTS must be a number ≥ 200" >&2; exit 2; }
[[ $theme =~ ^[a-z0-9_-]+$ ]] || { echo "bench-theme: bad theme $theme" >&2; exit 2; }
WP_PEER_ROOT=/usr/share/wordpress
[[ -r /var/lib/wp-peer/active.env ]] && . /var/lib/wp-peer/active.env
theme_dir=$WP_PEER_ROOT/wp-content/themes/$theme
[[ -f $theme_dir/theme.json ]] || { echo "bench-theme: the peer has no block theme $theme ($theme_dir)" >&2; exit 1; }
command -v jq >/dev/null || { echo "bench-theme: needs jq (apt-get install jq)" >&2; exit 1; }
out=.cache/bench-theme
stack=bench-theme
mkdir -p "$out"
rm -f "$out"/*.json "$out"/*.md
go build -o bin/loadgen ./test/cmd/loadgen # always: a binary from an older checkout may lack a flag
load_before=$(cut -d' ' -f1-3 /proc/loadavg)

bin/siteplane-run -name "$stack" -stop >/dev/null 2>&1 || true
hack/postgres.sh destroy "$stack" >/dev/null 2>&1 || true
# shellcheck disable=SC2317 # called by the EXIT trap
stop_stack() {
  local rc=$?
  bin/siteplane-run -name "$stack" -stop >/dev/null 2>&1 || true
  exit "$rc"
}
trap stop_stack EXIT
SITEPLANE_EDGE_CACHE_BYTES=0 bin/siteplane-run -name "$stack" -detach -port 0 -theme "$theme_dir" >"$out/run.txt" 2>&1 ||
  { tail -n 20 "$out/run.txt" >&2; exit 1; }
# shellcheck disable=SC1091
. ".cache/$stack/env"

# the newest post has no comments; the one before it gets fifty
nth_post() { # $1: base, $2: REST namespace root, $3: offset; prints "id link"; curl options in $curl_opts
  curl -fsS "${curl_opts[@]}" "$1/$2/posts?per_page=1&offset=$3&_fields=id,link" | jq -r '.[0] | "\(.id) \(.link)"'
}
# ------------------------------------------------------------ Siteplane
hack/bench-content.sh siteplane "$posts" "$SITEPLANE_DATABASE_URL"
curl_opts=()
read -r sp_post0 sp_link0 < <(nth_post "$REST_ROOT" cms/v2 0)
read -r sp_post50 sp_link50 < <(nth_post "$REST_ROOT" cms/v2 1)
psql=$(command -v psql || ls /usr/lib/postgresql/*/bin/psql 2>/dev/null | sort -V | tail -1)
# fifty comments: ten threads of an approved comment and four approved
# replies, written in SQL behind the service's back (the notification starts
# a new change generation, as a comment write through the API would)
"$psql" -q -v ON_ERROR_STOP=1 "$SITEPLANE_DATABASE_URL" <<SQL
SET search_path = content;
INSERT INTO comments (post, parent, author_name, author_email, date_gmt, content, status)
SELECT p.id, 0, 'Reader ' || k, 'reader' || k || '@example.test', p.date_gmt + k * interval '1 hour',
  'Comment ' || k || ' on this post: lorem ipsum dolor sit amet.', 'approved'
FROM posts p, generate_series(1, 10) k WHERE p.id = $sp_post50;
INSERT INTO comments (post, parent, author_name, author_email, date_gmt, content, status)
SELECT f.post, f.id, 'Replier ' || r, 'replier' || r || '@example.test', f.date_gmt + r * interval '1 minute',
  'Reply ' || r || ' to ' || f.content, 'approved'
FROM comments f, generate_series(1, 4) r WHERE f.post = $sp_post50 AND f.parent = 0;
UPDATE posts SET comment_count = (SELECT count(*) FROM comments WHERE post = $sp_post50 AND status = 'approved')
WHERE id = $sp_post50;
SELECT pg_notify('siteplane_changes', 'bench-theme');
SQL
# shellcheck source=hack/lib/stack-procs.sh
. hack/lib/stack-procs.sh # pid_of, cpu_sets
# check_pages: before a side is measured, each of its pages must answer 200
# with its own content (a reused WordPress copy once answered the post's URL
# with its 404 page, and the post row measured that): the body classes of
# the front page, the post and the archive, and on the post with comments
# the first comment and reply. $1: side, $2: site URL, $3 and $4: the two
# posts' links, $5 and $6: their ids; curl options in $curl_opts.
check_page() { # $1: side, $2: URL, $3...: strings the page must contain
  local side=$1 url=$2 code want
  shift 2
  code=$(curl -sS "${curl_opts[@]}" -o "$out/check.html" -w '%{http_code}' "$url") || code=000
  [[ $code == 200 ]] || { echo "bench-theme: $side answered $code to $url; not measuring it" >&2; exit 1; }
  for want in "$@"; do
    grep -qF -- "$want" "$out/check.html" ||
      { echo "bench-theme: $side's $url is not the page to measure (no \"$want\" in it; .cache/bench-theme/check.html)" >&2; exit 1; }
  done
}
check_pages() {
  check_page "$1" "$2/" 'class="home blog' "themes/$theme/"
  check_page "$1" "$3" "postid-$5 " "themes/$theme/"
  check_page "$1" "$4" "postid-$6 " "Comment 1 on this post" "Reply 1 to Comment " "themes/$theme/"
  check_page "$1" "$2/category/news/" "category-news " "themes/$theme/"
}
# spread_lists: the same page kinds over many pages in a shuffled order
# (loadgen's @FILE targets), so that what either side keeps per URL between
# writes (the website's generation snapshot; WordPress keeps nothing without
# an object cache) answers few requests: up to 20,000 posts' pages, the front
# page's pages from 2 and every category's full archive pages (up to 20,000
# of each; a 10 s target at ~2,000 requests/s asks each about once). The
# shuffle's seed is fixed, so both sides get the same page numbers.
# $1: side, $2: site URL, $3: REST root and namespace, $4...: a command
# printing the slugs of the published posts; curl options in $curl_opts.
spread_lists() {
  local side=$1 site=$2 rest=$3 f
  shift 3
  "$@" | shuffled | sed "s#.*#$site/&/#" >"$out/$side-posts.txt"
  seq 2 $((posts / 10)) | shuffled | sed "s#.*#$site/page/&/#" >"$out/$side-front.txt"
  curl -fsS "${curl_opts[@]}" "$rest/categories?per_page=100&_fields=slug,count" |
    jq -r '.[] | select(.count >= 10) | "\(.slug) \(.count / 10 | floor)"' | while read -r slug pages; do
      echo "$site/category/$slug/" # page 1: WordPress redirects …/page/1/ here
      seq 2 "$pages" | sed "s#.*#$site/category/$slug/page/&/#"
    done | shuffled >"$out/$side-categories.txt"
  for f in posts front categories; do
    (($(wc -l <"$out/$side-$f.txt") >= 10)) || { echo "bench-theme: $side: under 10 pages in $out/$side-$f.txt" >&2; exit 1; }
  done
}
shuffled() { shuf -n 20000 --random-source=<(yes); }
page_targets() { # $1: site URL, $2: post link, $3: link of the post with comments, $4: side (its spread lists)
  targets=(-target "page-front=GET $1/" -target "page-post=GET $2" -target "page-post-50-comments=GET $3"
    -target "page-category=GET $1/category/news/"
    -target "spread-post=GET @$out/$4-posts.txt" -target "spread-front-paged=GET @$out/$4-front.txt"
    -target "spread-category=GET @$out/$4-categories.txt")
}
spread_lists siteplane "$GATEWAY_URL" "$REST_ROOT/cms/v2" "$psql" -Atq "$SITEPLANE_DATABASE_URL" \
  -c "SELECT slug FROM content.posts WHERE type = 'post' AND status = 'publish' ORDER BY id"
page_targets "$GATEWAY_URL" "$sp_link0" "$sp_link50" siteplane
cpu=() mem=()
cpu_sets
check_pages Siteplane "$GATEWAY_URL" "$sp_link0" "$sp_link50" "$sp_post0" "$sp_post50"
sp_total=$(curl -fsS -D - -o /dev/null "$REST_ROOT/cms/v2/posts?per_page=1" | tr -d '\r' | sed -n 's/^[Xx]-[Ww][Pp]-[Tt]otal: //p')
status=0
echo "bench-theme: Siteplane, $theme, $sp_total posts, edge cache off" >&2
bin/loadgen -duration "$duration" -concurrency "$concurrency" -timeout 120s -title "Siteplane, $theme ($sp_total posts, edge cache off)" \
  -json "$out/siteplane.json" -markdown "$out/siteplane.md" "${cpu[@]}" "${mem[@]}" "${targets[@]}" || status=$?
bin/siteplane-run -name "$stack" -stop >/dev/null 2>&1 || true

# ------------------------------------------------------------ WordPress
hack/bench-content.sh wordpress "$posts" "$wp_host" "$theme"
db=wp_${wp_host//[.-]/_}
curl_opts=(-H "Host: $wp_host")
wr=$wp_url/wp-json
read -r wp_post0 wp_link0 < <(nth_post "$wr" wp/v2 0)
read -r wp_post50 wp_link50 < <(nth_post "$wr" wp/v2 1)
mysql "$db" <<SQL
INSERT INTO wp_comments (comment_post_ID, comment_author, comment_author_email, comment_author_url, comment_author_IP,
  comment_date, comment_date_gmt, comment_content, comment_approved, comment_agent, comment_type, comment_parent, user_id)
SELECT p.ID, CONCAT('Reader ', k.seq), CONCAT('reader', k.seq, '@example.test'), '', '127.0.0.1',
  p.post_date + INTERVAL k.seq HOUR, p.post_date_gmt + INTERVAL k.seq HOUR,
  CONCAT('Comment ', k.seq, ' on this post: lorem ipsum dolor sit amet.'), '1', '', 'comment', 0, 0
FROM wp_posts p, seq_1_to_10 k WHERE p.ID = $wp_post50;
INSERT INTO wp_comments (comment_post_ID, comment_author, comment_author_email, comment_author_url, comment_author_IP,
  comment_date, comment_date_gmt, comment_content, comment_approved, comment_agent, comment_type, comment_parent, user_id)
SELECT f.comment_post_ID, CONCAT('Replier ', r.seq), CONCAT('replier', r.seq, '@example.test'), '', '127.0.0.1',
  f.comment_date + INTERVAL r.seq MINUTE, f.comment_date_gmt + INTERVAL r.seq MINUTE,
  CONCAT('Reply ', r.seq, ' to ', f.comment_content), '1', '', 'comment', f.comment_ID, 0
FROM (SELECT * FROM wp_comments WHERE comment_post_ID = $wp_post50 AND comment_parent = 0) f, seq_1_to_4 r;
UPDATE wp_posts SET comment_count = (SELECT count(*) FROM wp_comments WHERE comment_post_ID = $wp_post50 AND comment_approved = '1')
WHERE ID = $wp_post50;
SQL
# the links name the copy's host; the requests go to the peer's address
spread_lists wordpress "$wp_url" "$wr/wp/v2" mysql -N "$db" \
  -e "SELECT post_name FROM wp_posts WHERE post_type = 'post' AND post_status = 'publish' ORDER BY ID"
page_targets "$wp_url" "$wp_url/${wp_link0#http*://*/}" "$wp_url/${wp_link50#http*://*/}" wordpress
check_pages WordPress "$wp_url" "$wp_url/${wp_link0#http*://*/}" "$wp_url/${wp_link50#http*://*/}" "$wp_post0" "$wp_post50"
wp_total=$(curl -fsS "${curl_opts[@]}" -D - -o /dev/null "$wr/wp/v2/posts?per_page=1" | tr -d '\r' | sed -n 's/^[Xx]-[Ww][Pp]-[Tt]otal: //p')
wp_version=$(curl -fsS "${curl_opts[@]}" "$wp_url/feed/" | sed -n 's#.*<generator>https://wordpress.org/?v=\([0-9.]*\)</generator>.*#\1#p' | head -1 || true)
echo "bench-theme: WordPress ${wp_version:-?}, $theme, $wp_total posts" >&2
bin/loadgen -duration "$duration" -concurrency "$concurrency" -timeout 120s -title "WordPress ${wp_version:-?}, $theme ($wp_total posts)" \
  -header "Host: $wp_host" -cpu "php-fpm=comm:php-fpm8.2" -cpu "mariadb=comm:mariadbd" -cpu "nginx=comm:nginx" \
  -json "$out/wordpress.json" -markdown "$out/wordpress.md" "${targets[@]}" || status=$?

# ------------------------------------------------------------ the table
comments_ratio() { # $1: a run's JSON: CPU of the page with fifty comments ÷ that of the page without
  jq -r '[.targets[] | {(.name): .cpu_ms_per_request_total}] | add | "\(.["page-post-50-comments"] / .["page-post"] * 100 | round / 100)×"' "$1"
}
{
  echo
  echo "### The same theme ($theme) beside WordPress ${wp_version:-?}, $posts posts, uncached"
  echo
  echo "$duration per page, $concurrency connections; load average (1, 5, 15 min) at the start: $load_before; at the end: $(cut -d' ' -f1-3 /proc/loadavg)."
  echo "CPU B÷A: how many times WordPress's server CPU per request is Siteplane's (the goal: ≥ 100×)."
  bin/loadgen -compare "$out/siteplane.json,$out/wordpress.json"
  echo
  echo "A page with fifty comments ÷ the page without (CPU per request; the goal: ≤ 2×): Siteplane $(comments_ratio "$out/siteplane.json"), WordPress $(comments_ratio "$out/wordpress.json")."
  cat "$out/siteplane.md" "$out/wordpress.md"
} >"$out/theme.md"
cat "$out/theme.md"
exit "$status"
