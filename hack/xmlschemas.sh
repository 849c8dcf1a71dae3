#!/usr/bin/env bash
# The XML validator and schemas the website's stack tests check the feeds and
# sitemaps with (test/stack/feeds_schema_test.go, docs/website.md):
#
#   - xmllint (Debian's libxml2-utils): XSD and RELAX NG validation; installed
#     with apt-get when missing and we are root with apt-get (as CI is);
#   - sitemaps.org's sitemap.xsd, as shipped by the npm package sitemap
#     (pinned, MIT), unpacked into bin/xmlschemas.
#
# Prints the directory holding sitemap.xsd (the tests read it from
# SITEPLANE_XML_SCHEMAS). Exits non-zero, with a hint on stderr, when either
# cannot be had; the schema tests then skip, or fail under CI=true.
set -euo pipefail
. "$(dirname "$0")/lib/apt.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
dir="$root/bin/xmlschemas"
pkg=sitemap@9.0.1
# sha256 of the package's tarball as the registry serves it
sum=413c182add50ef752a3a700a406eb3d8f0ef06bb4b80868563cea7d3ea620575

if ! command -v xmllint >/dev/null 2>&1; then
  if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
    echo "hack/xmlschemas.sh: installing Debian's libxml2-utils (xmllint)" >&2
    export DEBIAN_FRONTEND=noninteractive
    if ! apt_get install -y --no-install-recommends libxml2-utils >&2; then
      apt_get update >&2
      apt_get install -y --no-install-recommends libxml2-utils >&2
    fi
  fi
  command -v xmllint >/dev/null 2>&1 ||
    { echo "hack/xmlschemas.sh: no xmllint; install Debian's libxml2-utils (apt-get install libxml2-utils)" >&2; exit 1; }
fi

stamp="$dir/.installed"
if [[ ! -f $stamp || $(cat "$stamp") != "$pkg $sum" ]]; then
  command -v npm >/dev/null || { echo "hack/xmlschemas.sh: npm is not installed (apt-get install -y nodejs npm)" >&2; exit 1; }
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  (cd "$tmp" && npm pack --silent --loglevel=error "$pkg" >/dev/null)
  tgz=("$tmp"/sitemap-*.tgz)
  if [[ $(sha256sum "${tgz[0]}" | cut -d' ' -f1) != "$sum" ]]; then
    echo "hack/xmlschemas.sh: $pkg's tarball does not have the pinned sha256 $sum" >&2
    exit 1
  fi
  rm -rf "$dir"
  mkdir -p "$dir"
  tar -xzf "${tgz[0]}" -C "$tmp" package/schema/sitemap.xsd package/LICENSE
  cp "$tmp/package/schema/sitemap.xsd" "$dir/sitemap.xsd"
  cp "$tmp/package/LICENSE" "$dir/LICENSE.sitemap"
  echo "$pkg $sum" >"$stamp"
fi
echo "$dir"
