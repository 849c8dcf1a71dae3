#!/usr/bin/env bash
# `make test-differential`: Siteplane against WordPress 6.9.7, request by
# request (test/differential, issue 29). Brings the WordPress peer up with
# ../shared/peers/wordpress/up.sh (as root; idempotent), starts a Siteplane
# stack of its own (`siteplane-run -name diff -wp-alias`, its own PostgreSQL
# and .cache/diff, so `make run`'s data is never touched), runs the suite
# with both sites' administrators, and stops the stack. Then Twenty
# Twenty-Three rendered by both (issue 30): hack/wp-theme-copy.sh makes a
# copy of the peer with that theme (the peer keeps its own), and the stack
# test TestBrowserTwentyTwentyThreeBesideWordPress compares the six page
# kinds in headless Chromium (SITEPLANE_DIFF_NO_TT3=1 leaves this out).
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
if [[ -z ${SITEPLANE_DIFF_NO_TT3:-} ]]; then
  # before the suite's cd; the stack test has its own PostgreSQL database
  tt3_wp=$(hack/wp-theme-copy.sh tt3.wp.test twentytwentythree)
  tt3_env=(CI=true SITEPLANE_TT3_WP="$tt3_wp" SITEPLANE_TT3_WP_AUTH="$auth" SITEPLANE_TT3_DIR="$(hack/tt3.sh)"
    SITEPLANE_CHROMIUM="$(hack/chromium.sh)" SITEPLANE_TEST_DATABASE_URL="$(hack/postgres.sh start test)")
fi
cd test
# CI=true: without both sites the suite fails instead of skipping.
CI=true SITEPLANE_DIFF_WP=${SITEPLANE_DIFF_WP:-http://127.0.0.1:8081} \
SITEPLANE_DIFF_WP_AUTH=$auth \
SITEPLANE_DIFF_SITE=$GATEWAY_URL SITEPLANE_DIFF_SITE_AUTH="$ADMIN_USER:$ADMIN_APP_PASSWORD" \
  go test -count=1 -tags differential -v -run TestDifferential ./differential/
if [[ -z ${SITEPLANE_DIFF_NO_TT3:-} ]]; then
  # the stack's JSON log lines left out; pipefail keeps go test's status
  env "${tt3_env[@]}" go test -count=1 -v -run 'TestBrowserTwentyTwentyThreeBesideWordPress$' ./stack/ 2>&1 |
    { grep -v '^{"time"' || true; }
fi
