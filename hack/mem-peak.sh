#!/usr/bin/env bash
# Peak memory of the four services under the memory-heavy scenarios of
# `make bench`, without the whole bench: starts a stack of its own
# (.cache/mem-peak, edge cache off, profiling listeners on), brings it to
# MEM_POSTS posts (hack/bench-content.sh), runs a list, a search, the
# website's front page and a post's page, two marketplace calls, a batch
# and the 12-megapixel upload scenario of `make bench` (hack/bench.sh) with
# test/cmd/loadgen on loopback,
# and prints loadgen's table (peak of the sum of RSS, sampled every
# 100 ms) and each process's VmHWM (the kernel's exact peak RSS).
#
#   hack/mem-peak.sh                      # 100000 posts, 10 s reads, 30 s uploads
#   MEM_POSTS=200 MEM_UPLOAD_DURATION=15s hack/mem-peak.sh
#   MEM_KEEP=1 hack/mem-peak.sh           # leave the stack running (heap profiles:
#                                         # the pprof addresses are in .cache/mem-peak/run.txt)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
posts=${MEM_POSTS:-100000}
duration=${MEM_DURATION:-10s}
stack=mem-peak
out=.cache/$stack-out
mkdir -p "$out"
[[ -x bin/loadgen ]] || go build -o bin/loadgen ./test/cmd/loadgen
for n in gateway content media marketplace; do # as make build and the images build them
  if LC_ALL=C readelf -lW "bin/$n" 2>/dev/null | grep -q INTERP; then
    echo "mem-peak: bin/$n is dynamically linked (libc in every process); run make build" >&2
    exit 1
  fi
done
bin/siteplane-run -name "$stack" -stop >/dev/null 2>&1 || true
# shellcheck disable=SC2317 # called by the EXIT trap
stop_stack() {
  local rc=$?
  [[ -n ${MEM_KEEP:-} ]] || bin/siteplane-run -name "$stack" -stop >/dev/null 2>&1 || true
  exit "$rc"
}
trap stop_stack EXIT
hack/postgres.sh destroy "$stack" >/dev/null 2>&1 || true
# as make bench: purchase validation is limited per key
export SITEPLANE_VALIDATION_RATE_PER_MINUTE=1000000
SITEPLANE_EDGE_CACHE_BYTES=0 SITEPLANE_PPROF_ADDR=127.0.0.1:0 \
  bin/siteplane-run -name "$stack" -detach -port 0 >"$out/run.txt" 2>&1 ||
  { tail -n 20 "$out/run.txt" >&2; exit 1; }
# shellcheck disable=SC1091
. ".cache/$stack/env"
hack/bench-content.sh siteplane "$posts" "$SITEPLANE_DATABASE_URL"
auth="Authorization: Basic $(printf '%s:%s' "$ADMIN_USER" "$ADMIN_APP_PASSWORD" | base64 -w0)"
bin/loadgen -write-jpeg "$out/upload-4000x3000.jpg" -jpeg-size 4000x3000
targets=(-target "posts-list=GET $REST_ROOT/cms/v2/posts?per_page=10"
  -target "search=GET $REST_ROOT/cms/v2/posts?per_page=10&search=demo"
  -target "page-front=GET $GATEWAY_URL/")
post_link=$(curl -fsS "$REST_ROOT/cms/v2/posts?per_page=1&_fields=link" | grep -o '"link":"[^"]*"' | head -1 | cut -d'"' -f4 | sed 's#\\/#/#g' || true)
[[ -n $post_link ]] && targets+=(-target "page-post=GET $post_link")
if [[ -n ${MARKETPLACE_API_KEY:-} ]]; then
  # the marketplace scenarios of make bench that allocate most
  targets+=(-target "market-items=GET $GATEWAY_URL/api/items/all" -target-header "market-items=Authorization: Bearer $MARKETPLACE_API_KEY"
    -target "market-validate=POST $GATEWAY_URL/api/purchases/validation {\"purchase_code\":\"7f3c2a1e-5b8d-4c6f-9a0e-1d2b3c4d5e6f\"}"
    -target-header "market-validate=Authorization: Bearer $MARKETPLACE_API_KEY")
fi
reqs=()
for i in $(seq 1 25); do reqs+=("{\"method\":\"POST\",\"path\":\"/cms/v2/posts\",\"body\":{\"title\":\"mem {{seq}} $i\",\"status\":\"publish\"}}"); done
targets+=(-target "batch-25=POST $REST_ROOT/batch/v1 {\"validation\":\"require-all-validate\",\"requests\":[$(IFS=,; echo "${reqs[*]}")]}"
  -target-header "batch-25=$auth" -target-concurrency "batch-25=1")
targets+=(-target "media-upload-12MP=POST $REST_ROOT/cms/v2/media?_fields=id @$out/upload-4000x3000.jpg"
  -target-header "media-upload-12MP=$auth" -target-header "media-upload-12MP=Content-Type: image/jpeg"
  -target-header "media-upload-12MP=Content-Disposition: attachment; filename=\"bench.jpg\""
  -target-concurrency "media-upload-12MP=${MEM_UPLOAD_CONCURRENCY:-8}"
  -target-duration "media-upload-12MP=${MEM_UPLOAD_DURATION:-30s}")
mem=()
pids=()
for n in gateway content media marketplace; do
  p=$(pgrep -f "^$root/bin/$n\$" | head -1 || true)
  [[ -n $p ]] && mem+=(-mem "$n=pid:$p") && pids+=("$n=$p")
done
status=0
bin/loadgen -duration "$duration" -concurrency 16 -timeout 120s -title "mem-peak ($posts posts, edge cache off)" \
  "${mem[@]}" "${targets[@]}" || status=$?
echo
echo "VmHWM (peak RSS) per process:"
for np in "${pids[@]}"; do
  printf '  %-12s %s\n' "${np%%=*}" "$(awk '/VmHWM/ {printf "%.1f MiB", $2/1024}' "/proc/${np#*=}/status")"
done
exit "$status"
