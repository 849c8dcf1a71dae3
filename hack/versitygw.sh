#!/usr/bin/env bash
# hack/versitygw.sh — print ONE line on stdout: the absolute path of a
# versitygw binary (an S3-compatible server; its posix backend stores objects
# as plain files), used by the media service's S3 blob-store tests. Everything
# else goes to stderr.
#
# The binary is built once from the Go module proxy into
# bin/versitygw-<version>/versitygw (a few minutes on 2 cores; cached after),
# atomically (a temp dir renamed into place), under a lock so concurrent runs
# build it once. The tests find it through SITEPLANE_TEST_VERSITYGW, which
# hack/test.sh sets from this script's output.
#
# Knob: VERSITYGW_VERSION (default below).
set -euo pipefail

VERSION=${VERSITYGW_VERSION:-v1.8.0}

root=$(cd "$(dirname "$0")/.." && pwd)
dir="$root/bin/versitygw-$VERSION"
bin="$dir/versitygw"
log() { printf 'versitygw: %s\n' "$*" >&2; }

if [[ -x $bin ]]; then
  echo "$bin"
  exit 0
fi
command -v go >/dev/null || { log "ERROR: go is not on PATH"; exit 1; }
mkdir -p "$root/bin"
exec 9>"$root/bin/.versitygw.lock"
flock 9
if [[ ! -x $bin ]]; then
  log "building versitygw $VERSION into bin/ (once; a few minutes)"
  tmp=$(mktemp -d "$root/bin/.versitygw-build.XXXXXX")
  trap 'rm -rf "$tmp"' EXIT
  # The module is built on its own terms: not as part of this checkout's
  # go.work, with its own go.sum checked against the checksum database.
  GOWORK=off GOFLAGS= CGO_ENABLED=0 GOBIN="$tmp" go install -trimpath "github.com/versity/versitygw/cmd/versitygw@$VERSION"
  "$tmp/versitygw" --version >/dev/null 2>&1 || { log "ERROR: the built binary does not run"; exit 1; }
  rm -rf "$dir"
  mv "$tmp" "$dir"
  trap - EXIT
fi
echo "$bin"
