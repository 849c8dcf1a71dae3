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
# The stamp records how the binary was built; a different recipe rebuilds.
recipe="helm $VERSION, default Kubernetes version from its client-go (as helm's Makefile)"
log() { printf 'helm: %s\n' "$*" >&2; }
built() { [[ -x $bin ]] && [[ $(cat "$dir/.recipe" 2>/dev/null) == "$recipe" ]]; }

if built; then
  echo "$bin"
  exit 0
fi
command -v go >/dev/null || { log "ERROR: go is not on PATH"; exit 1; }
mkdir -p "$root/bin"
exec 9>"$root/bin/.helm.lock"
flock 9
if ! built; then
  log "building helm $VERSION into bin/ (once; a few minutes)"
  started=$SECONDS
  tmp=$(mktemp -d "$root/bin/.helm-build.XXXXXX")
  trap 'rm -rf "$tmp"' EXIT
  # helm's own Makefile stamps the version, and the Kubernetes version that
  # `helm template` and `helm lint` assume (the client-go minor it is built
  # with, 0.N -> 1.N); without it they assume 1.20 and refuse any chart whose
  # kubeVersion asks for more.
  gomod=$(GOWORK=off GOFLAGS= go mod download -json "helm.sh/helm/v3@$VERSION" | sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",*$/\1/p')
  cg=$(awk '$1 == "k8s.io/client-go" { print $2; exit }' "$gomod")
  minor=${cg#v0.}
  minor=${minor%%.*}
  [[ $minor =~ ^[0-9]+$ ]] || { log "ERROR: no k8s.io/client-go version in $gomod"; exit 1; }
  ldflags="-s -w -X helm.sh/helm/v3/internal/version.version=$VERSION"
  for p in helm.sh/helm/v3/pkg/lint/rules helm.sh/helm/v3/pkg/chartutil; do
    ldflags+=" -X $p.k8sVersionMajor=1 -X $p.k8sVersionMinor=$minor"
  done
  # Built on its own terms: outside this checkout's go.work, with its own
  # go.sum checked against the checksum database.
  GOWORK=off GOFLAGS= CGO_ENABLED=0 GOBIN="$tmp" nice -n 10 go install -trimpath -ldflags "$ldflags" \
    "helm.sh/helm/v3/cmd/helm@$VERSION"
  "$tmp/helm" version --short >&2 || { log "ERROR: the built binary does not run"; exit 1; }
  printf '%s' "$recipe" >"$tmp/.recipe"
  rm -rf "$dir"
  mv "$tmp" "$dir"
  trap - EXIT
  log "built in $((SECONDS - started))s (default Kubernetes version 1.$minor)"
fi
echo "$bin"
