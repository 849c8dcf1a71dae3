#!/usr/bin/env bash
# The scaling table of `make bench` (issue 31, docs/performance.md#the-scaling-table):
# every GET route of the REST index, the common filters of the collections,
# _embed, the website's page kinds, feeds and sitemaps, each timed on one
# stack at 200 posts (the demo seed) and again after bulk-loading it to
# BENCH_POSTS (hack/bench-content.sh: term links and comments in a blog's
# proportions), with the edge cache off; a route whose cost (server CPU per
# request: gateway, content, media and PostgreSQL, from /proc) grows more
# than BENCH_SCALE_GROWTH (1.3) times is flagged.
#
#   BENCH_POSTS=1000000 hack/bench-scale.sh
#
# Variables: BENCH_POSTS (default 100000), BENCH_SCALE_DURATION (per route
# and size, default 2s), BENCH_SCALE_CONCURRENCY (2), BENCH_SCALE_GROWTH
# (1.3), BENCH_SCALE_KEEP=1 keeps the stack (bin/siteplane-run -name
# bench-scale -stop); BENCH_SCALE_ONLY=large measures a kept stack again
# (no new stack, no load; the 200-post run of the last full run stays as
# the reference). Results: .cache/bench-scale/scaling.md and the two runs'
# JSON. Routes that answer neither anonymously nor to the administrator with
# a 2xx at 200 posts (an autosave that does not exist, a route needing
# parameters) are listed as skipped.
#
# Peak RSS of the four services over both runs is reported
# (loadgen -mem). Exit status: loadgen's (non-zero when a request failed or
# got another status than at 200 posts).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
posts=${BENCH_POSTS:-100000}
duration=${BENCH_SCALE_DURATION:-2s}
concurrency=${BENCH_SCALE_CONCURRENCY:-2}
growth=${BENCH_SCALE_GROWTH:-1.3}
[[ $posts =~ ^[0-9]+$ ]] && ((posts >= 200)) || { echo "bench-scale: BENCH_POSTS must be a number ≥ 200" >&2; exit 2; }
command -v jq >/dev/null || { echo "bench-scale: needs jq (apt-get install jq)" >&2; exit 1; }
out=.cache/bench-scale
stack=bench-scale
mkdir -p "$out"
[[ -x bin/loadgen ]] || go build -o bin/loadgen ./test/cmd/loadgen

only=${BENCH_SCALE_ONLY:-}
if [[ $only != large ]]; then
  rm -f "$out"/*.json "$out"/*.md
  bin/siteplane-run -name "$stack" -stop >/dev/null 2>&1 || true
  hack/postgres.sh destroy "$stack" >/dev/null 2>&1 || true
fi
# shellcheck disable=SC2317 # called by the EXIT trap
stop_stack() {
  local rc=$?
  [[ -n ${BENCH_SCALE_KEEP:-} ]] || bin/siteplane-run -name "$stack" -stop >/dev/null 2>&1 || true
  exit "$rc"
}
trap stop_stack EXIT
if [[ $only != large ]]; then
  SITEPLANE_EDGE_CACHE_BYTES=0 bin/siteplane-run -name "$stack" -detach -port 0 >"$out/run.txt" 2>&1 ||
    { tail -n 20 "$out/run.txt" >&2; exit 1; }
fi
# shellcheck disable=SC1091
. ".cache/$stack/env"
auth="Authorization: Basic $(printf '%s:%s' "$ADMIN_USER" "$ADMIN_APP_PASSWORD" | base64 -w0)"
status_of() { curl -s -o /dev/null -w '%{http_code}' "$@"; }
first_id() { curl -fsS -H "$auth" "$REST_ROOT$1" | jq -r 'if type == "array" then (.[0].id // empty) else empty end' 2>/dev/null || true; }

# ------------------------------------------------------------ the targets
targets=() skipped=()
add() { # $1: name (no "="), $2: URL; anonymous when it answers so, else as the administrator
  local name=$1 url=$2
  if [[ $(status_of "$url") == 2* ]]; then
    targets+=(-target "$name=GET $url")
  elif [[ $(status_of -H "$auth" "$url") == 2* ]]; then
    targets+=(-target "$name=GET $url" -target-header "$name=$auth")
  else
    skipped+=("$name")
  fi
}
post_id=$(first_id "/cms/v2/posts?per_page=1")
declare -A ids=()
# each collection's first id (what a {id} or {parent} of its routes becomes)
id_of() { # $1: collection route
  if [[ -z ${ids[$1]+x} ]]; then
    ids[$1]=$(first_id "$1?per_page=1&context=edit")
    [[ $1 == /cms/v2/posts ]] && ids[$1]=$post_id
  fi
  printf '%s' "${ids[$1]}"
}
while IFS= read -r route; do
  path=$route
  case $route in
  */autosaves* | */application-passwords/* | /oembed/1.0/proxy | /cache-plugin/v1/tool/* | /cache-plugin/v1/guest/*)
    skipped+=("$route"); continue ;; # writes' companions, another site's URL, tools with required arguments
  esac
  if [[ $path =~ ^(/cms/v2/[a-z_-]+)/\(\?P\<(id|parent)\>\[\\d\]\+\)(.*)$ ]]; then
    coll=${BASH_REMATCH[1]} rest=${BASH_REMATCH[3]}
    id=$(id_of "$coll")
    [[ -n $id ]] || { skipped+=("$route"); continue; }
    path=$coll/$id$rest
    if [[ $rest =~ ^/revisions/\(\?P\<id\>\[\\d\]\+\)$ ]]; then
      rev=$(first_id "$coll/$id/revisions?per_page=1")
      [[ -n $rev ]] || { skipped+=("$route"); continue; }
      path=$coll/$id/revisions/$rev
    fi
  fi
  path=${path/\(\?P<type>\[\\w-\]+\)/post}
  path=${path/\(\?P<taxonomy>\[\\w-\]+\)/category}
  path=${path/\(\?P<status>\[\\w-\]+\)/publish}
  path=${path/\(\?P<user_id>\(\?:\[\\d\]+|me\)\)/me}
  [[ $path == *'(?P<'* ]] && { skipped+=("$route"); continue; }
  add "$path" "$REST_ROOT$path"
done < <(curl -fsS "$REST_ROOT/" | jq -r '.routes | to_entries[] | select([.value.endpoints[].methods[]] | index("GET")) | .key')

# the collections' common filters, _embed, and the term and comment reads
news=$(curl -fsS "$REST_ROOT/cms/v2/categories?slug=news&_fields=id" | jq -r '.[0].id')
tag=$(curl -fsS "$REST_ROOT/cms/v2/tags?per_page=1&_fields=id" | jq -r '.[0].id')
for f in "per_page=100" "categories=$news" "tags=$tag" "search=demo" "search=lorem" "after=2001-01-01T00:00:00" \
  "before=2100-01-01T00:00:00" "orderby=title" "page=20" "offset=150" "status=any&context=edit" "_embed" "per_page=100&_embed" \
  "_embed=wp:term" "author=1"; do
  add "posts?${f//=/:}" "$REST_ROOT/cms/v2/posts?$f"
done
for f in "post=$post_id" "hide_empty=true" "orderby=count&order=desc"; do
  add "categories?${f//=/:}" "$REST_ROOT/cms/v2/categories?$f"
  add "tags?${f//=/:}" "$REST_ROOT/cms/v2/tags?$f"
done
add "comments?post" "$REST_ROOT/cms/v2/comments?post=$post_id"
add "search?search:demo" "$REST_ROOT/cms/v2/search?search=demo"

# the website: one URL of each page kind, feeds, sitemaps
link=$(curl -fsS "$REST_ROOT/cms/v2/posts/$post_id?_fields=link" | jq -r .link)
page_link=$(curl -fsS "$REST_ROOT/cms/v2/pages?per_page=1&_fields=link" | jq -r '.[0].link // empty')
tag_slug=$(curl -fsS "$REST_ROOT/cms/v2/tags/$tag?_fields=slug" | jq -r .slug)
year=$(curl -fsS "$REST_ROOT/cms/v2/posts/$post_id?_fields=date" | jq -r '.date[0:4]')
for kv in "site:front=/" "site:page-2=/page/2/" "site:post=$link" "site:page=$page_link" "site:category=/category/news/" \
  "site:category-page-2=/category/news/page/2/" "site:tag=/tag/$tag_slug/" "site:author=/author/admin/" "site:year=/$year/" \
  "site:search=/?s=demo" "site:feed=/feed/" "site:feed-atom=/feed/atom/" "site:category-feed=/category/news/feed/" \
  "site:comments-feed=/comments/feed/" "site:sitemap=/cms-sitemap.xml" "site:sitemap-posts-1=/cms-sitemap-posts-post-1.xml" \
  "site:sitemap-categories=/cms-sitemap-taxonomies-category-1.xml" "site:robots=/robots.txt"; do
  name=${kv%%=*} url=${kv#*=}
  [[ -n $url ]] || continue
  [[ $url == http* ]] || url=$GATEWAY_URL$url
  add "$name" "$url"
done
echo "bench-scale: ${#targets[@]} target arguments; skipped: ${skipped[*]}" >&2

# ------------------------------------------------------------ the two runs
# shellcheck source=hack/lib/stack-procs.sh
. hack/lib/stack-procs.sh # pid_of, cpu_sets
cpu=() mem=()
cpu_sets
run() { # $1: file stem, $2: title
  bin/loadgen -duration "$duration" -concurrency "$concurrency" -timeout 120s -title "$2" -json "$out/$1.json" \
    -markdown "$out/$1.md" "${cpu[@]}" "${mem[@]}" "${targets[@]}"
}
small=$(curl -fsS -D - -o /dev/null "$REST_ROOT/cms/v2/posts?per_page=1" | tr -d '\r' | sed -n 's/^[Xx]-[Ww][Pp]-[Tt]otal: //p')
status=0
if [[ $only != large ]]; then
  run small "$small posts" || status=$?
  hack/bench-content.sh siteplane "$posts" "$SITEPLANE_DATABASE_URL"
fi
large=$(curl -fsS -D - -o /dev/null "$REST_ROOT/cms/v2/posts?per_page=1" | tr -d '\r' | sed -n 's/^[Xx]-[Ww][Pp]-[Tt]otal: //p')
run large "$large posts" || status=$?
bin/loadgen -compare "$out/small.json,$out/large.json" -growth "$growth" -markdown "$out/scaling.md"
jq -r '"peak RSS of the services (MiB): " + ([.mem_labels, .peak_rss_mib] | transpose | map("\(.[0]) \(.[1])") | join(", ")) + "; together \(.peak_rss_total_mib)"' \
  "$out/large.json" | tee -a "$out/scaling.md"
echo "(load average: $(cut -d' ' -f1-3 /proc/loadavg); skipped routes: ${skipped[*]})" | tee -a "$out/scaling.md"
exit "$status"
