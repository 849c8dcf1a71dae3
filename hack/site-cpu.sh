#!/usr/bin/env bash
# CPU per website page, uncached: starts the local stack with the gateway's
# edge cache off (SITEPLANE_EDGE_CACHE_BYTES=0) and a profiling listener on
# every service, loads the front page and one post's page with
# test/cmd/loadgen on loopback, and divides the CPU time the content service,
# the gateway and PostgreSQL spent (utime+stime from /proc, ticks) by the
# requests served. Requests per second on a shared machine are noisy; CPU per
# request is not (much). See docs/website.md.
#
#   hack/site-cpu.sh                     # 10 s per page, 8 connections
#   SITE_CPU_DURATION=20s hack/site-cpu.sh
#   SITE_CPU_KEEP=1 hack/site-cpu.sh     # leave the stack running (bin/siteplane-run -stop)
#   SITE_CPU_WORDPRESS=http://127.0.0.1:8081 hack/site-cpu.sh
#       also the same two pages of a WordPress on this machine, CPU of its
#       php-fpm, nginx and mariadbd processes (the comparison of the issue)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
duration=${SITE_CPU_DURATION:-10s}
concurrency=${SITE_CPU_CONCURRENCY:-8}
mkdir -p .cache/site-cpu
[[ -x bin/loadgen ]] || go build -o bin/loadgen ./test/cmd/loadgen

bin/siteplane-run -stop >/dev/null 2>&1 || true
# shellcheck disable=SC2317 # called by the EXIT trap
stop_stack() {
  local rc=$?
  [[ -n ${SITE_CPU_KEEP:-} ]] || bin/siteplane-run -stop >/dev/null 2>&1 || true
  exit "$rc"
}
trap stop_stack EXIT
SITEPLANE_EDGE_CACHE_BYTES=0 SITEPLANE_PPROF_ADDR=127.0.0.1:0 \
  bin/siteplane-run -detach -port 0 >.cache/site-cpu/run.txt 2>&1 ||
  { tail -n 20 .cache/site-cpu/run.txt >&2; exit 1; }
# shellcheck disable=SC1091
. .cache/run/env

# The processes whose CPU a page costs: content, gateway, and PostgreSQL's
# postmaster with its backends (children).
content=$(pgrep -f "^$root/bin/content\$" | head -1)
gateway=$(pgrep -f "^$root/bin/gateway\$" | head -1)
postmaster=$(pgrep -f "postgres -D $root/.cache/postgres/run/" | head -1 || true)
# shellcheck source=hack/lib/cpu.sh
. hack/lib/cpu.sh
own_ticks() { # utime+stime of exactly the given pids
  local total=0 p
  for p in "$@"; do
    [[ -r /proc/$p/stat ]] && total=$((total + $(sed 's/^.*) //' "/proc/$p/stat" | awk '{print $12 + $13}')))
  done
  echo "$total"
}
post_link=$(curl -fsS "$REST_ROOT/cms/v2/posts?per_page=1&_fields=link" | grep -o '"link":"[^"]*"' | head -1 | cut -d'"' -f4 | sed 's#\\/#/#g')
printf '| page | requests | req/s | CPU ms/request (content + gateway + postgres) | content | gateway | postgres |\n|---|---:|---:|---:|---:|---:|---:|\n'
for t in "front=$GATEWAY_URL/" "post=$post_link"; do
  name=${t%%=*} url=${t#*=}
  cpu_measure "$name" "$url"
  printf '| %s | %d | %s | %s | %s | %s | %s |\n' "$name" "$req_n" "$req_rps" "$ms_total" "$ms_content" "$ms_gateway" "$ms_postgres"
done
if [[ -n ${SITE_CPU_WORDPRESS:-} ]]; then
  wp=${SITE_CPU_WORDPRESS%/}
  wp_pids=$(pgrep -d' ' -f 'php-fpm|nginx|mariadbd' || true)
  wp_post=$(curl -fsS "$wp/wp-json/wp/v2/posts?per_page=1&_fields=link" | grep -o '"link":"[^"]*"' | head -1 | cut -d'"' -f4 | sed 's#\\/#/#g')
  for t in "wordpress-front=$wp/" "wordpress-post=$wp_post"; do
    name=${t%%=*} url=${t#*=}
    # shellcheck disable=SC2086 # a list of pids
    c0=$(own_ticks $wp_pids)
    out=$(bin/loadgen -duration "$duration" -concurrency "$concurrency" -target "$name=GET $url" 2>/dev/null)
    # shellcheck disable=SC2086
    c1=$(own_ticks $wp_pids)
    row=$(grep "^| $name " <<<"$out")
    n=$(awk -F'|' '{gsub(/ /,"",$5); print $5}' <<<"$row")
    rps=$(awk -F'|' '{gsub(/ /,"",$6); print $6}' <<<"$row")
    awk -v n="$n" -v rps="$rps" -v hz="$hz" -v c=$((c1 - c0)) -v name="$name" \
      'BEGIN { printf "| %s | %d | %s | %.3f (php-fpm + nginx + mariadbd) | | | |\n", name, n, rps, c * 1000 / hz / n }'
  done
fi
echo "(pprof listeners: grep -i pprof .cache/run/logs/*; content pid $content, gateway pid $gateway, postmaster ${postmaster:-?})"
