#!/usr/bin/env bash
# Prints the tables of docs/admin.md (Speed), each site measured in headless
# Chromium signed in as the administrator:
#  1. the block editor: an existing post opened, time to an editable title
#     (cold and warm browser cache), bytes transferred, REST requests;
#  2. the site editor: the home template opened in its canvas, time to the
#     canvas showing the template's blocks, the same counts;
#  3. a template saved through REST N times (SAVES, 10), each followed by one
#     anonymous request of the front page: how many showed the save.
# Measures the stack of `make run-detached` (.cache/run/env, or
# STACK_ENV=path) and, when WP_URL is set, a WordPress beside it (WP_USER,
# WP_PASSWORD for wp-login.php, WP_POST; WP_THEME, twentytwentyfive; for the
# saves WP_APP_PASSWORD, login:application password).
#
#   make run-detached && hack/admin-bench.sh
#   WP_URL=http://127.0.0.1:8081 WP_PASSWORD=... WP_POST=252 \
#     WP_APP_PASSWORD="$(cat ../shared/peers/wordpress/app-password.txt)" hack/admin-bench.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck disable=SC1090
. "${STACK_ENV:-.cache/run/env}"
chromium=$(hack/chromium.sh)
go build -o bin/editorbench ./test/cmd/editorbench
auth="$ADMIN_USER:$ADMIN_APP_PASSWORD"
# A post with the blocks a person writes, to open (created once per run).
post=$(curl -sf -u "$auth" -H 'Content-Type: application/json' \
  -d '{"title":"Opened by the editor benchmark","status":"publish","content":"<!-- wp:heading -->\n<h2 class=\"wp-block-heading\">A heading</h2>\n<!-- /wp:heading -->\n\n<!-- wp:paragraph -->\n<p>A paragraph of text.</p>\n<!-- /wp:paragraph -->"}' \
  "$REST_ROOT/cms/v2/posts?_fields=id" | sed 's/[^0-9]//g')
theme=$(curl -sf -u "$auth" "$REST_ROOT/cms/v2/themes?status=active&_fields=stylesheet" | sed 's/.*"stylesheet":"\([^"]*\)".*/\1/')
wp_theme=${WP_THEME:-twentytwentyfive}
home="p=%2Fwp_template%2F$theme%2F%2Fhome&canvas=edit"
wp_home="p=%2Fwp_template%2F$wp_theme%2F%2Fhome&canvas=edit"

posts=(-site "Siteplane|$GATEWAY_URL|$ADMIN_USER|$ADMIN_LOGIN_PASSWORD|/cms-login.php|/cms-admin/post.php?post=$post&action=edit")
sites=(-site "Siteplane|$GATEWAY_URL|$ADMIN_USER|$ADMIN_LOGIN_PASSWORD|/cms-login.php|/cms-admin/site-editor.php?$home")
saves=(-visibility "Siteplane|$GATEWAY_URL|$REST_ROOT/cms/v2|$auth|$theme//home|/")
if [[ -n ${WP_URL:-} ]]; then
  posts+=(-site "WordPress|$WP_URL|${WP_USER:-admin}|$WP_PASSWORD|/wp-login.php|/wp-admin/post.php?post=${WP_POST:-1}&action=edit")
  sites+=(-site "WordPress|$WP_URL|${WP_USER:-admin}|$WP_PASSWORD|/wp-login.php|/wp-admin/site-editor.php?$wp_home")
  if [[ -n ${WP_APP_PASSWORD:-} ]]; then
    saves+=(-visibility "WordPress|$WP_URL|$WP_URL/wp-json/wp/v2|$WP_APP_PASSWORD|$wp_theme//home|/")
  fi
fi
bin/editorbench -chromium "$chromium" -runs "${RUNS:-3}" "${posts[@]}"
echo
bin/editorbench -chromium "$chromium" -runs "${RUNS:-3}" -screen site "${sites[@]}"
echo
bin/editorbench -saves "${SAVES:-10}" "${saves[@]}"
