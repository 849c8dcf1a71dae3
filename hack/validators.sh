#!/usr/bin/env bash
# The page validators the website's validator tests run (docs/website.md,
# "Validators"): the Nu HTML Checker (npm `vnu-jar`, run with Java) and
# axe-core (npm `axe-core`, injected into headless Chromium). Installs the
# pinned packages of hack/validators/package-lock.json into
# .cache/validators/node_modules (npm ci, only when the lock changed) and
# Java from Debian when it is missing and we are root with apt-get (as CI is).
# Prints the node_modules directory (SITEPLANE_VALIDATORS for the tests).
# Idempotent; exits non-zero with a hint when something cannot be provided.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
src="$root/hack/validators"
work="$root/.cache/validators"
. "$(dirname "$0")/lib/apt.sh"

need_pkg() { # command, Debian package
  command -v "$1" >/dev/null && return 0
  if [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null; then
    echo "validators: installing Debian's $2" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt_get install -y -q --no-install-recommends "$2" >&2 || { apt_get update >&2 && apt_get install -y -q --no-install-recommends "$2" >&2; }
  fi
  command -v "$1" >/dev/null || { echo "validators: $1 is needed (apt-get install -y $2)" >&2; exit 1; }
}
need_pkg java default-jre-headless
need_pkg npm npm

mkdir -p "$work"
if ! cmp -s "$src/package-lock.json" "$work/package-lock.json" || [[ ! -f $work/node_modules/vnu-jar/build/dist/vnu.jar || ! -f $work/node_modules/axe-core/axe.min.js ]]; then
  cp "$src/package.json" "$src/package-lock.json" "$work/"
  echo "validators: npm ci (vnu-jar, axe-core) into .cache/validators" >&2
  (cd "$work" && npm ci --no-audit --no-fund --loglevel=error >&2)
fi
echo "$work/node_modules"
