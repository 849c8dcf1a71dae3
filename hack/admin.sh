#!/usr/bin/env bash
# Builds the admin bundle (docs/admin.md): installs the pinned npm packages
# of admin/package-lock.json into .cache/admin/node_modules (npm ci, only
# when the lock changed) and bundles admin/src with esbuild into the
# content-hashed files the gateway embeds (services/internal/gateway/adminui).
# Idempotent: nothing is done when the sources and the lock are unchanged.
# Node.js and npm come from Debian's packages when missing (as root).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
src="$root/admin"
work="$root/.cache/admin"
out="$root/services/internal/gateway/adminui"
. "$(dirname "$0")/lib/apt.sh"

if ! command -v npm >/dev/null || ! command -v node >/dev/null; then
  if [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null; then
    echo "admin: installing Debian's nodejs and npm" >&2
    DEBIAN_FRONTEND=noninteractive apt_get install -y -q nodejs npm >&2
  else
    echo "admin: Node.js and npm are needed (apt-get install -y nodejs npm)" >&2
    exit 1
  fi
fi

# The stamp is a digest of everything the bundle is made from.
stamp=$(cd "$src" && find . -type f -not -path './node_modules/*' | LC_ALL=C sort | xargs sha256sum | sha256sum | cut -c1-16)
if [[ -f $out/manifest.json && -f $out/.stamp && $(cat "$out/.stamp") == "$stamp" ]]; then
  exit 0
fi

mkdir -p "$work"
if ! cmp -s "$src/package-lock.json" "$work/package-lock.json" || [[ ! -d $work/node_modules ]]; then
  cp "$src/package.json" "$src/package-lock.json" "$work/"
  echo "admin: npm ci (pinned editor packages, esbuild) into .cache/admin" >&2
  (cd "$work" && npm ci --no-audit --no-fund --loglevel=error >&2)
fi
rm -rf "$work/src"
cp -r "$src/src" "$src/build.mjs" "$work/"
echo "admin: bundling into services/internal/gateway/adminui" >&2
node "$work/build.mjs" "$out" >&2
echo "$stamp" >"$out/.stamp"
