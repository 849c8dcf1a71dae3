#!/usr/bin/env bash
# CPU per REST read, uncached: starts the local stack (name read-cpu) with
# the gateway's edge cache off (SITEPLANE_EDGE_CACHE_BYTES=0), optionally
# brings it to N posts as `make bench` does (hack/bench-content.sh), loads
# `GET posts?per_page=10` and `GET posts/5` with test/cmd/loadgen on
# loopback, and divides the CPU time the gateway, content and PostgreSQL
# spent (utime+stime from /proc) by the requests served. See
# docs/performance.md#version-reads.
#
#   hack/read-cpu.sh                        # 200 posts (the demo seed), 10 s, 16 connections
#   READ_CPU_POSTS=100000 hack/read-cpu.sh  # 100,000 posts (adding them takes about a minute)
#   READ_CPU_DURATION=20s READ_CPU_KEEP=1 hack/read-cpu.sh   # keep the stack (bin/siteplane-run -name read-cpu -stop)
#   READ_CPU_READS="list late create" hack/read-cpu.sh
#       which requests (default "list single"): list (posts?per_page=10),
#       single (posts/5), late (posts?per_page=10&page=500; a 400 below
#       5,000 posts), create (POST posts as the administrator; each adds a
#       post, so run it last), list100 and embed100 (posts?per_page=100,
#       without and with _embed)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
duration=${READ_CPU_DURATION:-10s}
concurrency=${READ_CPU_CONCURRENCY:-16}
posts=${READ_CPU_POSTS:-200}
stack=read-cpu
mkdir -p .cache/read-cpu
[[ -x bin/loadgen ]] || go build -o bin/loadgen ./test/cmd/loadgen

bin/siteplane-run -name "$stack" -stop >/dev/null 2>&1 || true
hack/postgres.sh destroy "$stack" >/dev/null 2>&1 || true # a fresh site: exactly $posts posts
# shellcheck disable=SC2317 # called by the EXIT trap
stop_stack() {
  local rc=$?
  [[ -n ${READ_CPU_KEEP:-} ]] || bin/siteplane-run -name "$stack" -stop >/dev/null 2>&1 || true
  exit "$rc"
}
trap stop_stack EXIT
SITEPLANE_EDGE_CACHE_BYTES=0 SITEPLANE_PPROF_ADDR=127.0.0.1:0 \
  bin/siteplane-run -name "$stack" -detach -port 0 >.cache/read-cpu/run.txt 2>&1 ||
  { tail -n 20 .cache/read-cpu/run.txt >&2; exit 1; }
# shellcheck disable=SC1091
. ".cache/$stack/env"
hack/bench-content.sh siteplane "$posts" "$SITEPLANE_DATABASE_URL"

content=$(pgrep -f "^$root/bin/content\$" | head -1)
gateway=$(pgrep -f "^$root/bin/gateway\$" | head -1)
media=$(pgrep -f "^$root/bin/media\$" | head -1)
postmaster=$(pgrep -f "postgres -D $root/.cache/postgres/$stack/" | head -1 || true)
# shellcheck source=hack/lib/cpu.sh
. hack/lib/cpu.sh
printf '| read | requests | req/s | CPU ms/request | gateway | content | postgres | media |\n|---|---:|---:|---:|---:|---:|---:|---:|\n'
auth="Authorization: Basic $(printf '%s:%s' "$ADMIN_USER" "$ADMIN_APP_PASSWORD" | base64 -w0)"
for name in ${READ_CPU_READS:-list single}; do
  case $name in
  list) cpu_measure list "$REST_ROOT/cms/v2/posts?per_page=10" ;;
  single) cpu_measure single "$REST_ROOT/cms/v2/posts/5" ;;
  list100) cpu_measure list100 "$REST_ROOT/cms/v2/posts?per_page=100" ;;
  embed100) cpu_measure embed100 "$REST_ROOT/cms/v2/posts?per_page=100&_embed" ;;
  late)
    expect=()
    ((posts < 5000)) && expect=(-expect "late=400") # page 500 is past the end (rest_post_invalid_page_number)
    cpu_measure late "$REST_ROOT/cms/v2/posts?per_page=10&page=500" "${expect[@]}"
    ;;
  create)
    cpu_measure create "POST $REST_ROOT/cms/v2/posts {\"title\":\"read-cpu {{seq}}\",\"content\":\"<p>x</p>\",\"status\":\"publish\"}" \
      -target-header "create=$auth"
    ;;
  *) echo "unknown read: $name" >&2; exit 2 ;;
  esac
  printf '| %s | %d | %s | %s | %s | %s | %s | %s |\n' "$name" "$req_n" "$req_rps" "$ms_total" "$ms_gateway" "$ms_content" "$ms_postgres" "$ms_media"
done
echo "(load average: $(cut -d' ' -f1-3 /proc/loadavg); pprof listeners: grep -i pprof .cache/$stack/logs/*)"
