#!/usr/bin/env bash
# Headless Chromium for the browser tests (test/browser).
#
#   hack/chromium.sh        print the path of a Chromium binary, installing
#                           Debian's `chromium` package first when none is found
#                           and we are root with apt-get (as CI is)
#
# Exits non-zero (with a hint on stderr) when no Chromium is available and it
# cannot be installed; the browser tests then skip, or fail under CI=true.
set -euo pipefail
. "$(dirname "$0")/lib/apt.sh"

find_bin() {
  local b
  for b in chromium chromium-browser google-chrome; do
    if command -v "$b" >/dev/null 2>&1; then command -v "$b"; return 0; fi
  done
  return 1
}

if find_bin; then exit 0; fi

if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
  echo "hack/chromium.sh: installing Debian's chromium package" >&2
  export DEBIAN_FRONTEND=noninteractive
  if ! apt_get install -y --no-install-recommends chromium >&2; then
    apt_get update >&2
    apt_get install -y --no-install-recommends chromium >&2
  fi
  find_bin && exit 0
fi

echo "hack/chromium.sh: no Chromium found; install Debian's chromium package (apt-get install chromium) or run as root with apt-get" >&2
exit 1
