#!/usr/bin/env bash
# `make bench`: load a local Siteplane stack (and, when BENCH_WORDPRESS_URL is
# set, the WordPress peer) with test/cmd/loadgen on loopback, print a results
# table, stop the stack. Results: .cache/bench/results.md (and the raw
# .cache/bench/*.json).
#
#   BENCH_POSTS=100000 BENCH_WORDPRESS_URL=http://127.0.0.1:8081 make bench
#
# Variables:
#   BENCH_POSTS          posts in the site (default 200, the demo seed; more
#                        are added with one SQL statement, hack/bench-content.sh)
#   BENCH_DURATION       per scenario (default 10s); BENCH_CONCURRENCY (16)
#   BENCH_WORDPRESS_URL  the WordPress peer; its scenarios run in the same
#                        invocation against a copy of it holding BENCH_POSTS
#                        posts (Host: BENCH_WORDPRESS_HOST, default
#                        siteplane-bench; see hack/bench-content.sh), so the
#                        peer itself is never written to
#   BENCH_WORDPRESS_APP_PASSWORD_FILE  "admin:xxxx xxxx ..." (default
#                        ../shared/peers/wordpress/app-password.txt)
#   BENCH_MEDIA=0        skip the 30 s media upload scenario
#   BENCH_THEME          with BENCH_WORDPRESS_URL: the block theme both sides
#                        render in the theme table (hack/bench-theme.sh: front
#                        page, a post with and without fifty comments, a
#                        category archive, Siteplane beside a copy of the
#                        peer with that theme; default twentytwentythree;
#                        0 skips it)
#   BENCH_SCALE=0        skip the scaling table (hack/bench-scale.sh: every GET
#                        route at 200 posts and at BENCH_POSTS, flagging those
#                        whose cost grows more than 1.3×)
#
# The stack starts from empty data (its own instance, hack/postgres.sh
# destroy bench-stack; a `make run` database is never touched) with the
# edge cache off, so every read reaches the services; the cached-* scenarios then run against the same data with
# the cache on. Server CPU per request is read from /proc for each process
# (gateway, content, media, marketplace, PostgreSQL's postmaster and
# backends; WordPress: php-fpm, mariadbd, nginx), peak RSS of the four
# services is sampled over the uncached run.
#
# loadgen (test/cmd/loadgen) is a lean HTTP/1.1 client so as to take little
# of the cores it measures: one goroutine per connection, each target's
# request serialised once, answers read through a 64 KiB buffer looking only
# at their framing headers and discarded in it (Content-Length or chunked),
# connections replaced when the server closes them; about 0.09 ms of its own
# CPU per 17 KB list request (wrk: 0.06; docs/performance.md, "The load
# generator"). Latency runs from a request's start to its answer's last byte.
#
# Purchase validation is limited per key, so the stack runs with
# BENCH_VALIDATION_RATE (default 1000000 a minute). Media uploads: a
# 4000×3000 JPEG as the administrator, BENCH_UPLOAD_CONCURRENCY (8) at once
# for BENCH_UPLOAD_DURATION (30s).
#
# The exit status is loadgen's: non-zero when any request failed or got
# another status than the expected one (2xx; 400 for page=500 when the site
# has fewer than 5000 posts). The stack is stopped however the script ends.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
duration=${BENCH_DURATION:-10s}
concurrency=${BENCH_CONCURRENCY:-16}
posts=${BENCH_POSTS:-200}
[[ $posts =~ ^[0-9]+$ ]] && ((posts >= 200)) || { echo "bench: BENCH_POSTS must be a number ≥ 200 (the demo seed)" >&2; exit 2; }
wp_url=${BENCH_WORDPRESS_URL:-}
wp_host=${BENCH_WORDPRESS_HOST:-siteplane-bench}
wp_pass_file=${BENCH_WORDPRESS_APP_PASSWORD_FILE:-$root/../shared/peers/wordpress/app-password.txt}
export SITEPLANE_VALIDATION_RATE_PER_MINUTE=${BENCH_VALIDATION_RATE:-1000000}
# A purchase code of the demo account (services/internal/marketplace/testdata/demo.json).
purchase_code=7f3c2a1e-5b8d-4c6f-9a0e-1d2b3c4d5e6f
out=.cache/bench
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
mkdir -p "$out"
rm -f "$out"/*.json
go build -o bin/loadgen ./test/cmd/loadgen

# The bench stack has its own name, PostgreSQL instance and directory
# (.cache/bench-stack), so a `make run` database is never touched; a running
# `make run-detached` stack is stopped (its data kept) so that the /proc
# samples see only the bench's processes.
stack=bench-stack
bin/siteplane-run -stop >/dev/null 2>&1 || true
bin/siteplane-run -name "$stack" -stop >/dev/null 2>&1 || true
# shellcheck disable=SC2317 # called by the EXIT trap
stop_stack() {
  local rc=$?
  bin/siteplane-run -name "$stack" -stop >/dev/null 2>&1 || echo "bench: stopping the stack failed (bin/siteplane-run -name $stack -stop)" >&2
  exit "$rc"
}
trap stop_stack EXIT
start_stack() { # $1: edge cache bytes
  if ! SITEPLANE_EDGE_CACHE_BYTES=$1 bin/siteplane-run -name "$stack" -detach >"$out/run.txt" 2>&1; then
    echo "bench: the stack did not start:" >&2
    tail -n 20 "$out/run.txt" >&2
    exit 1
  fi
  # shellcheck disable=SC1091
  . ".cache/$stack/env"
}
json_field() { grep -o "\"$1\":[0-9]*" | head -1 | cut -d: -f2; }

# ---------------------------------------------------------------- content
hack/postgres.sh destroy "$stack" >/dev/null 2>&1 || true
start_stack 0
hack/bench-content.sh siteplane "$posts" "$SITEPLANE_DATABASE_URL"

# the scenarios, the same on both sides (targets use $base and $auth)
page500=()
((posts < 5000)) && page500=(-expect "page-500=400")
read_targets() { # $1: REST root, $2: namespace (cms/v2 or wp/v2), $3: category id, $4: search word, $5: post id
  local r=$1 ns=$2
  targets+=(-target "index=GET $r/")
  targets+=(-target "posts-list=GET $r/$ns/posts?per_page=10")
  targets+=(-target "category=GET $r/$ns/posts?per_page=10&categories=$3")
  targets+=(-target "search=GET $r/$ns/posts?per_page=10&search=$4")
  targets+=(-target "orderby-title=GET $r/$ns/posts?per_page=10&orderby=title")
  targets+=(-target "page-500=GET $r/$ns/posts?per_page=10&page=500" "${page500[@]}")
  targets+=(-target "post-by-id=GET $r/$ns/posts/$5")
}
write_targets() { # $1: REST root, $2: namespace, $3: Authorization header, $4: batch path prefix
  # distinct titles ({{seq}}: loadgen numbers each request), so that no
  # create searches through a growing list of equal slugs
  local r=$1 ns=$2 body='{"title":"bench-create {{seq}}","content":"<p>Created by make bench.</p>","status":"publish"}'
  local reqs=() i
  for i in $(seq 1 25); do reqs+=("{\"method\":\"POST\",\"path\":\"$4/posts\",\"body\":{\"title\":\"bench-batch {{seq}} $i\",\"status\":\"publish\"}}"); done
  local batch
  batch="{\"validation\":\"require-all-validate\",\"requests\":[$(IFS=,; echo "${reqs[*]}")]}"
  targets+=(-target "create=POST $r/$ns/posts $body" -target-header "create=$3")
  targets+=(-target "batch-25=POST $r/batch/v1 $batch" -target-header "batch-25=$3" -target-concurrency "batch-25=1")
}
# shellcheck source=hack/lib/stack-procs.sh
. hack/lib/stack-procs.sh # pid_of, cpu_sets

# ---------------------------------------------------------------- Siteplane, uncached
targets=()
news=$(curl -fsS "$REST_ROOT/cms/v2/categories?slug=news&_fields=id" | json_field id)
post_id=$(curl -fsS "$REST_ROOT/cms/v2/posts?per_page=1&_fields=id" | json_field id)
total=$(curl -fsS -D - -o /dev/null "$REST_ROOT/cms/v2/posts?per_page=1" | tr -d '\r' | sed -n 's/^[Xx]-[Ww][Pp]-[Tt]otal: //p')
auth="Authorization: Basic $(printf '%s:%s' "$ADMIN_USER" "$ADMIN_APP_PASSWORD" | base64 -w0)"
read_targets "$REST_ROOT" cms/v2 "$news" demo "$post_id"
# the website (docs/website.md): the front page, one post's page and a category archive
targets+=(-target "page-front=GET $GATEWAY_URL/" -target "page-category=GET $GATEWAY_URL/category/news/")
post_link=$(curl -fsS "$REST_ROOT/cms/v2/posts?per_page=1&_fields=link" | grep -o '"link":"[^"]*"' | head -1 | cut -d'"' -f4 | sed 's#\\/#/#g' || true)
[[ -n $post_link ]] && targets+=(-target "page-post=GET $post_link")
write_targets "$REST_ROOT" cms/v2 "$auth" /cms/v2
api=$GATEWAY_URL
if [[ -n ${MARKETPLACE_API_KEY:-} ]]; then
  bearer="Authorization: Bearer $MARKETPLACE_API_KEY"
  item_id=$(curl -fsS -H "$bearer" "$api/api/items/all" | json_field id || true)
  targets+=(-target "market-account=GET $api/api/account/details?api_key=$MARKETPLACE_API_KEY")
  targets+=(-target "market-items=GET $api/api/items/all" -target-header "market-items=$bearer")
  [[ -n $item_id ]] && targets+=(-target "market-item=GET $api/api/items/item?api_key=$MARKETPLACE_API_KEY&item_id=$item_id")
  targets+=(-target "market-validate=POST $api/api/purchases/validation {\"purchase_code\":\"$purchase_code\"}"
    -target-header "market-validate=$bearer")
fi
if [[ -n ${MEDIA_URL:-} && ${BENCH_MEDIA:-1} != 0 ]]; then
  bin/loadgen -write-jpeg "$out/upload-4000x3000.jpg" -jpeg-size 4000x3000
  media_pid=$(pid_of media)
  targets+=(-target "media-upload-12MP=POST $REST_ROOT/cms/v2/media?_fields=id @$out/upload-4000x3000.jpg"
    -target-header "media-upload-12MP=$auth" -target-header "media-upload-12MP=Content-Type: image/jpeg"
    -target-header "media-upload-12MP=Content-Disposition: attachment; filename=\"bench.jpg\""
    -target-concurrency "media-upload-12MP=${BENCH_UPLOAD_CONCURRENCY:-8}"
    -target-duration "media-upload-12MP=${BENCH_UPLOAD_DURATION:-30s}")
  [[ -n $media_pid ]] && targets+=(-rss "media-upload-12MP=$media_pid")
fi
cpu=() mem=()
cpu_sets
status=0
echo "bench: Siteplane, $total posts, edge cache off" >&2
bin/loadgen -duration "$duration" -concurrency "$concurrency" -timeout 120s -title "Siteplane ($total posts, edge cache off)" \
  -json "$out/siteplane.json" -markdown "$out/siteplane.md" "${cpu[@]}" "${mem[@]}" "${targets[@]}" || status=$?

# ---------------------------------------------------------------- Siteplane, edge cache on
bin/siteplane-run -name "$stack" -stop >/dev/null 2>&1 || true
start_stack $((64 << 20))
targets=(-target "posts-list=GET $REST_ROOT/cms/v2/posts?per_page=10" -target "post-by-id=GET $REST_ROOT/cms/v2/posts/$post_id")
cpu=() mem=()
cpu_sets
echo "bench: Siteplane, edge cache on" >&2
bin/loadgen -duration "$duration" -concurrency "$concurrency" -title "Siteplane ($total posts, edge cache on)" \
  -json "$out/siteplane-cached.json" -markdown "$out/siteplane-cached.md" "${cpu[@]}" "${targets[@]}" || status=$?
bin/siteplane-run -name "$stack" -stop >/dev/null 2>&1 || true

# ---------------------------------------------------------------- WordPress
wp_note=""
if [[ -n $wp_url ]]; then
  host_header=()
  if hack/bench-content.sh wordpress "$posts" "$wp_host"; then
    host_header=(-header "Host: $wp_host")
    curl_host=(-H "Host: $wp_host")
  else
    wp_note="WordPress ran as it was (no copy with $posts posts could be made; see above): creates went into the peer."
    curl_host=()
  fi
  wr="$wp_url/wp-json"
  wp_auth="Authorization: Basic $(tr -d '\n' <"$wp_pass_file" | base64 -w0)"
  wp_news=$(curl -fsS "${curl_host[@]}" "$wr/wp/v2/categories?slug=news&_fields=id" | json_field id)
  wp_post=$(curl -fsS "${curl_host[@]}" "$wr/wp/v2/posts?per_page=1&_fields=id" | json_field id)
  wp_total=$(curl -fsS "${curl_host[@]}" -D - -o /dev/null "$wr/wp/v2/posts?per_page=1" | tr -d '\r' | sed -n 's/^[Xx]-[Ww][Pp]-[Tt]otal: //p')
  wp_link=$(curl -fsS "${curl_host[@]}" "$wr/wp/v2/posts?per_page=1&_fields=link" | grep -o '"link":"[^"]*"' | head -1 | cut -d'"' -f4 | sed 's#\\/#/#g')
  targets=()
  read_targets "$wr" wp/v2 "$wp_news" peer "$wp_post"
  targets+=(-target "page-front=GET $wp_url/" -target "page-category=GET $wp_url/category/news/")
  # the link names the copy's host; the request goes to the peer's address
  [[ -n $wp_link ]] && targets+=(-target "page-post=GET $wp_url/${wp_link#http*://*/}")
  write_targets "$wr" wp/v2 "$wp_auth" /wp/v2
  cpu=(-cpu "php-fpm=comm:php-fpm8.2" -cpu "mariadb=comm:mariadbd" -cpu "nginx=comm:nginx")
  # the version of whichever WordPress is up (its feed's generator)
  wp_version=$(curl -fsS "${curl_host[@]}" "$wp_url/feed/" | sed -n 's#.*<generator>https://wordpress.org/?v=\([0-9.]*\)</generator>.*#\1#p' | head -1 || true)
  echo "bench: WordPress ${wp_version:-(version unknown)}, $wp_total posts" >&2
  bin/loadgen -duration "$duration" -concurrency "$concurrency" -timeout 120s -title "WordPress ${wp_version:-?} ($wp_total posts)" \
    -json "$out/wordpress.json" -markdown "$out/wordpress.md" "${host_header[@]}" "${cpu[@]}" "${targets[@]}" || status=$?
fi

# ---------------------------------------------------------------- the same theme beside WordPress
# issue 30: Siteplane and a copy of the peer rendering the same block theme
# (hack/bench-theme.sh, a stack of its own; BENCH_THEME=0 skips it)
theme=${BENCH_THEME:-twentytwentythree}
if [[ -n $wp_url && $theme != 0 ]]; then
  echo "bench: $theme beside WordPress, $posts posts" >&2
  rm -f .cache/bench-theme/theme.md
  BENCH_POSTS=$posts BENCH_THEME=$theme BENCH_THEME_DURATION=${BENCH_THEME_DURATION:-$duration} BENCH_WORDPRESS_URL=$wp_url \
    hack/bench-theme.sh >&2 || status=$?
fi

# ---------------------------------------------------------------- the scaling table
# every GET route at 200 posts and at BENCH_POSTS, on a stack of its own
# (hack/bench-scale.sh; BENCH_SCALE=0 skips it)
if [[ ${BENCH_SCALE:-1} != 0 ]]; then
  echo "bench: scaling table, 200 and $posts posts" >&2
  BENCH_POSTS=$posts hack/bench-scale.sh >&2 || status=$?
fi

# ---------------------------------------------------------------- the table
{
  echo "# make bench, $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo
  echo "BENCH_POSTS=$posts, $duration per scenario, $concurrency connections (batch-25: 1; media upload: ${BENCH_UPLOAD_CONCURRENCY:-8})."
  echo "Machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo); load generator on the same machine;"
  echo "Load average (1, 5, 15 min) at the start: $load_before; at the end: $(cut -d' ' -f1-3 /proc/loadavg) (other engineers share the machine)."
  [[ -n $wp_note ]] && echo "$wp_note"
  if [[ -f $out/wordpress.json ]]; then
    bin/loadgen -compare "$out/siteplane.json,$out/wordpress.json"
  fi
  cat "$out/siteplane.md" "$out/siteplane-cached.md"
  [[ -f $out/wordpress.md ]] && cat "$out/wordpress.md"
  if [[ -f $out/wordpress.json ]]; then
    bin/loadgen -compare "$out/siteplane-cached.json,$out/wordpress.json"
  fi
  [[ -n $wp_url && $theme != 0 && -f .cache/bench-theme/theme.md ]] && cat .cache/bench-theme/theme.md
  [[ ${BENCH_SCALE:-1} != 0 && -f .cache/bench-scale/scaling.md ]] && cat .cache/bench-scale/scaling.md
} >"$out/results.md.tmp"
mv "$out/results.md.tmp" "$out/results.md"
cat "$out/results.md"
echo
echo "Results: $out/results.md"
if [[ $status -ne 0 ]]; then
  echo "bench: some requests failed or got an unexpected status (see the unexpected status and errors columns)" >&2
fi
exit "$status"
