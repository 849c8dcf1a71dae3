#!/usr/bin/env bash
# hack/cluster/build.sh — build the local cluster's binaries from the Go module
# proxy into a cache OUTSIDE the clone, so a later run on the same machine (any
# clone) is warm. Prints the cache's bin directory on stdout; logs on stderr.
#
#   kube-apiserver kube-controller-manager kube-scheduler kubelet kube-proxy
#   kubectl  (k8s.io/kubernetes, one `go build` so they share compilation)
#   etcd     (go.etcd.io/etcd/server/v3)
#   coredns  (github.com/coredns/coredns)
#
# Versions are the ones hack/envtest.sh builds (same module layout, flags and
# CGO_ENABLED=0), so the Go build cache of one serves the other.
# Knobs: SITEPLANE_CACHE (default ${XDG_CACHE_HOME:-$HOME/.cache}/siteplane).
set -euo pipefail
K8S_VERSION=1.37.1   # keep in step with hack/envtest.sh
ETCD_VERSION=3.7.0   # the etcd Kubernetes 1.37.1 is tested with (as hack/envtest.sh)
COREDNS_VERSION=1.15.0

cache=${SITEPLANE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/siteplane}
bin="$cache/bin/k8s-v$K8S_VERSION-etcd-v$ETCD_VERSION-coredns-v$COREDNS_VERSION"
export GOWORK=off CGO_ENABLED=0
log() { printf 'cluster-build: %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }
# shellcheck source=../lib/k8s-module.sh
. "$(dirname "$0")/../lib/k8s-module.sh"
now() { date +%s; }
k8s_cmds=(kube-apiserver kube-controller-manager kube-scheduler kubelet kube-proxy kubectl)
complete() {
  local b
  for b in "${k8s_cmds[@]}" etcd coredns; do [[ -x $bin/$b ]] || return 1; done
}
if complete; then log "warm: $bin"; echo "$bin"; exit 0; fi
[[ ${SITEPLANE_CLUSTER_NO_BUILD:-0} != 1 ]] || die "not built yet: $bin"
command -v go >/dev/null || die "go is not on PATH"
mkdir -p "$cache/bin" "$cache/build"
exec 9>"$cache/build.lock"
flock 9
if complete; then echo "$bin"; exit 0; fi
tmp=$(mktemp -d "$cache/bin/.tmp.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
started=$(now)

# Kubernetes: a wrapper module (hack/lib/k8s-module.sh, as hack/envtest.sh).
k8s_mod=$K8S_MODULE
mod="$cache/build/k8s-v$K8S_VERSION"
k8s_module "$mod" siteplane.dev/cluster-build/k8s "$K8S_VERSION" "${k8s_cmds[@]}"
vflags=$(k8s_version_ldflags "$K8S_VERSION")
t0=$(now)
log "building ${k8s_cmds[*]} v$K8S_VERSION (about 10 min on 2 cores when the Go build cache is cold)"
pkgs=(); for c in "${k8s_cmds[@]}"; do pkgs+=("$k8s_mod/cmd/$c"); done
(cd "$mod" && nice -n 10 go build -trimpath -ldflags="-s -w$vflags" -o "$tmp/" "${pkgs[@]}" >&2) || die "building kubernetes"
log "built kubernetes in $(($(now) - t0))s"

# etcd: the same wrapper as hack/envtest.sh.
t0=$(now)
mod="$cache/build/etcd-v$ETCD_VERSION"
rm -rf "$mod" && mkdir -p "$mod"
cat >"$mod/main.go" <<'GO'
// Command etcd is upstream's etcd server (etcdmain), built from the module proxy.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() { etcdmain.Main(os.Args) }
GO
(cd "$mod" && go mod init siteplane.dev/cluster-build/etcd >/dev/null 2>&1 &&
  go mod edit -require="go.etcd.io/etcd/server/v3@v$ETCD_VERSION" && go mod tidy >&2 &&
  nice -n 10 go build -trimpath -ldflags="-s -w" -o "$tmp/etcd" . >&2) || die "building etcd"
log "built etcd in $(($(now) - t0))s"

# CoreDNS has no replace directives: go install works.
t0=$(now)
GOBIN="$tmp" nice -n 10 go install -trimpath -ldflags="-s -w" "github.com/coredns/coredns@v$COREDNS_VERSION" >&2 || die "building coredns"
log "built coredns in $(($(now) - t0))s"

"$tmp/kube-apiserver" --version >&2
rm -rf "$bin"; mv "$tmp" "$bin"; trap - EXIT
log "cached in $bin ($(($(now) - started))s)"
echo "$bin"
