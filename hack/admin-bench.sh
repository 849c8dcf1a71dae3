#!/usr/bin/env bash
# Opens an existing post in the block editor in headless Chromium and prints
# the table of docs/admin.md (Speed): time to an editable title (cold and
# warm browser cache), bytes transferred, REST requests. Measures the stack
# of `make run-detached` (.cache/run/env, or STACK_ENV=path) and, when
# WP_URL is set, a WordPress beside it (WP_USER, WP_PASSWORD, WP_POST).
#
#   make run-detached && hack/admin-bench.sh
#   WP_URL=http://127.0.0.1:8081 WP_PASSWORD=... WP_POST=252 hack/admin-bench.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck disable=SC1090
. "${STACK_ENV:-.cache/run/env}"
chromium=$(hack/chromium.sh)
go build -o bin/editorbench ./test/cmd/editorbench
# A post with the blocks a person writes, to open (created once per run).
post=$(curl -sf -u "$ADMIN_USER:$ADMIN_APP_PASSWORD" -H 'Content-Type: application/json' \
  -d '{"title":"Opened by the editor benchmark","status":"publish","content":"<!-- wp:heading -->\n<h2 class=\"wp-block-heading\">A heading</h2>\n<!-- /wp:heading -->\n\n<!-- wp:paragraph -->\n<p>A paragraph of text.</p>\n<!-- /wp:paragraph -->"}' \
  "$REST_ROOT/cms/v2/posts?_fields=id" | sed 's/[^0-9]//g')
sites=(-site "Siteplane|$GATEWAY_URL|$ADMIN_USER|$ADMIN_LOGIN_PASSWORD|/cms-login.php|/cms-admin/post.php?post=$post&action=edit")
if [[ -n ${WP_URL:-} ]]; then
  sites+=(-site "WordPress|$WP_URL|${WP_USER:-admin}|$WP_PASSWORD|/wp-login.php|/wp-admin/post.php?post=${WP_POST:-1}&action=edit")
fi
bin/editorbench -chromium "$chromium" -runs "${RUNS:-3}" "${sites[@]}"
