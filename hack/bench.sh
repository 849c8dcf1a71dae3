#!/usr/bin/env bash
# `make bench`: start the local stack in the background, load it with
# test/cmd/loadgen on loopback, print a results table, stop the stack.
# Results are also written to .cache/bench/results.md.
#
#   BENCH_DURATION=10s BENCH_CONCURRENCY=16 make bench
#
# Targets (each one skipped when its service is not built): the REST index,
# a posts page and one post through the gateway, the website's front page
# and one post's page; the marketplace's account,
# all items, one item and a purchase validation, through the gateway when
# it runs. Purchase validation is limited per key (60 a minute by default),
# so the stack is started with BENCH_VALIDATION_RATE (default 1000000, the
# highest the service accepts) as SITEPLANE_VALIDATION_RATE_PER_MINUTE,
# which siteplane-run passes on to the services.
#
# Media upload scenario (when the media service runs): a 4000×3000 JPEG
# (written by loadgen -write-jpeg) uploaded through the gateway as the
# administrator, every size generated, with BENCH_UPLOAD_CONCURRENCY (default
# 8) uploads at once for BENCH_UPLOAD_DURATION (default 30s); loadgen samples the media process's RSS from /proc and
# reports the peak. Uploaded files are removed with the stack's data by the
# next `make run`/`make bench` (they live under .cache/run/uploads).
#
# The exit status is loadgen's: non-zero when any request failed or answered
# other than 2xx. The stack is stopped however the script ends.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
duration=${BENCH_DURATION:-10s}
concurrency=${BENCH_CONCURRENCY:-16}
export SITEPLANE_VALIDATION_RATE_PER_MINUTE=${BENCH_VALIDATION_RATE:-1000000}
# A purchase code of the demo account (services/internal/marketplace/testdata/demo.json).
purchase_code=7f3c2a1e-5b8d-4c6f-9a0e-1d2b3c4d5e6f
mkdir -p .cache/bench
go build -o bin/loadgen ./test/cmd/loadgen

bin/siteplane-run -stop >/dev/null 2>&1 || true
# Set before starting, so that a start that fails half-way is cleaned up
# too; keep the script's own status rather than the stop command's.
# shellcheck disable=SC2317 # called by the EXIT trap
stop_stack() {
  local rc=$?
  bin/siteplane-run -stop >/dev/null 2>&1 || echo "bench: stopping the stack failed (bin/siteplane-run -stop)" >&2
  exit "$rc"
}
trap stop_stack EXIT
if ! bin/siteplane-run -detach >.cache/bench/run.txt 2>&1; then
  echo "bench: the stack did not start:" >&2
  tail -n 20 .cache/bench/run.txt >&2
  exit 1
fi
# shellcheck disable=SC1091
. .cache/run/env

targets=()
if [[ -n ${GATEWAY_URL:-} ]]; then
  targets+=(-target "index=GET $REST_ROOT/")
  targets+=(-target "posts-list=GET $REST_ROOT/cms/v2/posts?per_page=10")
  post_id=$(curl -fsS "$REST_ROOT/cms/v2/posts?per_page=1&_fields=id" | grep -o '"id":[0-9]*' | head -1 | cut -d: -f2 || true)
  [[ -n $post_id ]] && targets+=(-target "post-by-id=GET $REST_ROOT/cms/v2/posts/$post_id")
  # the website (docs/website.md): the front page and one post's page, rendered from the theme
  targets+=(-target "page-front=GET $GATEWAY_URL/")
  post_link=$(curl -fsS "$REST_ROOT/cms/v2/posts?per_page=1&_fields=link" | grep -o '"link":"[^"]*"' | head -1 | cut -d'"' -f4 | sed 's#\\/#/#g' || true)
  [[ -n $post_link ]] && targets+=(-target "page-post=GET $post_link")
  api=$GATEWAY_URL
else
  api=${MARKETPLACE_URL:-}
fi
if [[ -n ${MARKETPLACE_API_KEY:-} && -n $api ]]; then
  bearer="Authorization: Bearer $MARKETPLACE_API_KEY"
  item_id=$(curl -fsS -H "$bearer" "$api/api/items/all" | grep -o '"id":[0-9]*' | head -1 | cut -d: -f2 || true)
  targets+=(-target "market-account=GET $api/api/account/details?api_key=$MARKETPLACE_API_KEY")
  targets+=(-target "market-items=GET $api/api/items/all" -target-header "market-items=$bearer")
  [[ -n $item_id ]] && targets+=(-target "market-item=GET $api/api/items/item?api_key=$MARKETPLACE_API_KEY&item_id=$item_id")
  targets+=(-target "market-validate=POST $api/api/purchases/validation {\"purchase_code\":\"$purchase_code\"}"
    -target-header "market-validate=$bearer")
fi
if [[ -n ${MEDIA_URL:-} && -n ${GATEWAY_URL:-} ]]; then
  bin/loadgen -write-jpeg .cache/bench/upload-4000x3000.jpg -jpeg-size 4000x3000
  auth="Authorization: Basic $(printf '%s:%s' "$ADMIN_USER" "$ADMIN_APP_PASSWORD" | base64 -w0)"
  media_pid=$(pgrep -f "^$root/bin/media\$" | head -1 || true)
  targets+=(-target "media-upload-12MP=POST $REST_ROOT/cms/v2/media?_fields=id @.cache/bench/upload-4000x3000.jpg"
    -target-header "media-upload-12MP=$auth" -target-header "media-upload-12MP=Content-Type: image/jpeg"
    -target-header "media-upload-12MP=Content-Disposition: attachment; filename=\"bench.jpg\""
    -target-concurrency "media-upload-12MP=${BENCH_UPLOAD_CONCURRENCY:-8}"
    -target-duration "media-upload-12MP=${BENCH_UPLOAD_DURATION:-30s}")
  [[ -n $media_pid ]] && targets+=(-rss "media-upload-12MP=$media_pid")
fi
if [[ ${#targets[@]} -eq 0 ]]; then
  echo "bench: no service to load (build the services first)" >&2
  exit 1
fi
status=0
bin/loadgen -duration "$duration" -concurrency "$concurrency" -timeout 120s -markdown .cache/bench/results.md "${targets[@]}" || status=$?
echo
echo "Results: .cache/bench/results.md (machine: $(nproc) cores; load generator on the same machine)"
if [[ $status -ne 0 ]]; then
  echo "bench: some requests failed or answered other than 2xx (see the non-2xx and errors columns)" >&2
fi
exit "$status"
