#!/usr/bin/env bash
# `make bench`: start the local stack in the background, load it with
# test/cmd/loadgen on loopback, print a results table, stop the stack.
# Results are also written to .cache/bench/results.md.
#
#   BENCH_DURATION=10s BENCH_CONCURRENCY=16 make bench
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
duration=${BENCH_DURATION:-10s}
concurrency=${BENCH_CONCURRENCY:-16}
mkdir -p .cache/bench
go build -o bin/loadgen ./test/cmd/loadgen

bin/siteplane-run -stop >/dev/null 2>&1 || true
bin/siteplane-run -detach >.cache/bench/run.txt
trap 'bin/siteplane-run -stop >/dev/null' EXIT
# shellcheck disable=SC1091
. .cache/run/env

targets=()
if [[ -n ${GATEWAY_URL:-} ]]; then
  targets+=(-target "index=GET $REST_ROOT/")
  targets+=(-target "posts-list=GET $REST_ROOT/cms/v2/posts?per_page=10")
  post_id=$(curl -fsS "$REST_ROOT/cms/v2/posts?per_page=1&_fields=id" | grep -o '"id":[0-9]*' | head -1 | cut -d: -f2 || true)
  [[ -n $post_id ]] && targets+=(-target "post-by-id=GET $REST_ROOT/cms/v2/posts/$post_id")
  api=$GATEWAY_URL
else
  api=${MARKETPLACE_URL:-}
fi
if [[ -n ${MARKETPLACE_API_KEY:-} && -n $api ]]; then
  item_id=$(curl -fsS -H "Authorization: Bearer $MARKETPLACE_API_KEY" "$api/api/items/all" | grep -o '"id":[0-9]*' | head -1 | cut -d: -f2 || true)
  targets+=(-target "market-account=GET $api/api/account/details?api_key=$MARKETPLACE_API_KEY")
  [[ -n $item_id ]] && targets+=(-target "market-item=GET $api/api/items/item?api_key=$MARKETPLACE_API_KEY&item_id=$item_id")
fi
if [[ ${#targets[@]} -eq 0 ]]; then
  echo "bench: no service to load (build the services first)" >&2
  exit 1
fi
bin/loadgen -duration "$duration" -concurrency "$concurrency" -markdown .cache/bench/results.md "${targets[@]}"
echo
echo "Results: .cache/bench/results.md (machine: $(nproc) cores; load generator on the same machine)"
