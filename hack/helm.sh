#!/usr/bin/env bash
# hack/helm.sh — print ONE line on stdout: the absolute path of a pinned helm
# binary. Everything else goes to stderr.
#
# helm is built once from the Go module proxy (helm.sh/helm/v3, pinned below)
# into bin/helm-<version>/helm — a few minutes on 2 cores, cached after —
# atomically (a temp dir renamed into place) and under a lock, so concurrent
# callers build it once. A helm on PATH is deliberately NOT used: the chart
# tests must see the same helm on every machine.
#
# Used by hack/test.sh (the chart tests find it through SITEPLANE_HELM),
# hack/chart.sh and the e2e scripts.
#
# Knob: HELM_VERSION (default below).
set -euo pipefail

VERSION=${HELM_VERSION:-v3.22.0}

root=$(cd "$(dirname "$0")/.." && pwd)
dir="$root/bin/helm-$VERSION"
bin="$dir/helm"
log() { printf 'helm: %s\n' "$*" >&2; }

if [[ -x $bin ]]; then
  echo "$bin"
  exit 0
fi
command -v go >/dev/null || { log "ERROR: go is not on PATH"; exit 1; }
mkdir -p "$root/bin"
exec 9>"$root/bin/.helm.lock"
flock 9
if [[ ! -x $bin ]]; then
  log "building helm $VERSION into bin/ (once; a few minutes)"
  started=$SECONDS
  tmp=$(mktemp -d "$root/bin/.helm-build.XXXXXX")
  trap 'rm -rf "$tmp"' EXIT
  # Built on its own terms: outside this checkout's go.work, with its own
  # go.sum checked against the checksum database. The version stamp is what
  # helm's own Makefile sets, so `helm version` names the release.
  GOWORK=off GOFLAGS= CGO_ENABLED=0 GOBIN="$tmp" nice -n 10 go install -trimpath \
    -ldflags "-s -w -X helm.sh/helm/v3/internal/version.version=$VERSION" \
    "helm.sh/helm/v3/cmd/helm@$VERSION"
  "$tmp/helm" version --short >&2 || { log "ERROR: the built binary does not run"; exit 1; }
  rm -rf "$dir"
  mv "$tmp" "$dir"
  trap - EXIT
  log "built in $((SECONDS - started))s"
fi
echo "$bin"
