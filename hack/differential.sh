#!/usr/bin/env bash
# `make test-differential`: Siteplane against WordPress 6.9.7, request by
# request (test/differential, issue 29). Brings the WordPress peer up with
# ../shared/peers/wordpress/up.sh (as root; idempotent), starts a Siteplane
# stack of its own (`siteplane-run -name diff -wp-alias`, its own PostgreSQL
# and .cache/diff, so `make run`'s data is never touched), runs the suite
# with both sites' administrators, and stops the stack.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
peer=${WP_PEER_DIR:-$root/../shared/peers/wordpress}
if [[ -z ${SITEPLANE_DIFF_NO_PEER_UP:-} ]]; then
  bash "$peer/up.sh"
fi
make --no-print-directory build
bin/siteplane-run -stop -name diff >/dev/null 2>&1 || true
bin/siteplane-run -detach -name diff -port 0 -wp-alias
trap '"$root/bin/siteplane-run" -root "$root" -stop -name diff' EXIT
# shellcheck disable=SC1091
. .cache/diff/env
auth=${SITEPLANE_DIFF_WP_AUTH:-$(cat "$peer/app-password.txt")}
cd test
# CI=true: without both sites the suite fails instead of skipping.
CI=true SITEPLANE_DIFF_WP=${SITEPLANE_DIFF_WP:-http://127.0.0.1:8081} \
SITEPLANE_DIFF_WP_AUTH=$auth \
SITEPLANE_DIFF_SITE=$GATEWAY_URL SITEPLANE_DIFF_SITE_AUTH="$ADMIN_USER:$ADMIN_APP_PASSWORD" \
  go test -count=1 -tags differential -v -run TestDifferential ./differential/
