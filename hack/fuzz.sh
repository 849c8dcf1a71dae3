#!/usr/bin/env bash
# `make test-fuzz`: the fuzz targets over the request path, each in -fuzz
# mode for a bounded time (FUZZTIME, default 60s per target), against a
# throwaway PostgreSQL (the gateway's target needs its accounts). Not part
# of `make test`, which runs only their seed corpora. A failure leaves the
# crashing input under the package's testdata/fuzz/<target>/ and exits 1.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
fuzztime=${FUZZTIME:-60s}

# package and target, in request order: the route kit's query reading, its
# whole pipeline and schema validation, then the gateway's request handling.
targets=(
  "./services/internal/platform/rest FuzzQuery"
  "./services/internal/platform/rest FuzzServe"
  "./services/internal/platform/rest FuzzValidate"
  "./services/internal/gateway FuzzGatewayRequest"
)

started=0
if [[ -z ${DATABASE_URL:-} ]] && ! hack/postgres.sh status test >/dev/null 2>&1; then started=1; fi
SITEPLANE_TEST_DATABASE_URL=$(hack/postgres.sh start test)
export SITEPLANE_TEST_DATABASE_URL
[[ $started == 1 ]] && trap 'hack/postgres.sh stop test' EXIT

# One worker per target unless told otherwise: the machine is shared.
parallel=${FUZZPARALLEL:-1}
failed=0
for t in "${targets[@]}"; do
  read -r pkg name <<<"$t"
  printf '\n==> %s %s (%s)\n' "$pkg" "$name" "$fuzztime"
  if ! (cd services && go test "./${pkg#./services/}" -run '^$' -fuzz "^${name}\$" -fuzztime "$fuzztime" -parallel "$parallel"); then
    failed=1
  fi
done
exit $failed
