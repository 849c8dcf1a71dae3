#!/usr/bin/env bash
# Installs the npm packages the stack tests drive, pinned: wpapi (REST
# discovery from the site URL), into bin/npm and prints its node_modules
# directory. Idempotent. (The browser tests drive Chromium from Go, chromedp.)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir="$root/bin/npm"
want=(wpapi@1.2.2)
stamp="$dir/.installed"
if [[ ! -f $stamp || $(cat "$stamp") != "${want[*]}" ]]; then
  command -v npm >/dev/null || { echo "npm-clients: npm is not installed (apt-get install -y nodejs npm)" >&2; exit 1; }
  mkdir -p "$dir"
  [[ -f $dir/package.json ]] || echo '{"private":true}' >"$dir/package.json"
  npm install --prefix "$dir" --no-audit --no-fund --loglevel=error "${want[@]}" >&2
  echo "${want[*]}" >"$stamp"
fi
echo "$dir/node_modules"
