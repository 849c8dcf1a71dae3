#!/usr/bin/env bash
# hack/envtest.sh — print ONE line on stdout: an absolute directory holding
# kube-apiserver and etcd for controller-runtime's envtest (use it as
# KUBEBUILDER_ASSETS). Everything else goes to stderr.
#
# Where the binaries come from, first hit wins:
#   1. $KUBEBUILDER_ASSETS, if it already holds both binaries;
#   2. the cache bin/k8s/<version>-<os>-<arch>/ (same layout setup-envtest uses);
#   3. setup-envtest, the normal download path for machines with internet,
#      bounded by a short timeout so it fails fast where downloads are blocked;
#   4. a build from source through the Go module proxy (the only network some
#      CI machines have): kube-apiserver from k8s.io/kubernetes, etcd from
#      go.etcd.io/etcd/server/v3. Cold: several minutes on 2 cores; cached after.
#
# Every way into the cache is atomic (fill a temp dir, then rename), so a killed
# run never leaves a half-filled cache; a lock serialises concurrent runs.
#
# Knobs (environment): ENVTEST_K8S_VERSION, ENVTEST_ETCD_VERSION,
# ENVTEST_SKIP_DOWNLOAD=1 (skip step 3), ENVTEST_DOWNLOAD_TIMEOUT (seconds).
set -euo pipefail

# --- Pinned versions ---------------------------------------------------------
# Kubernetes: the operator uses controller-runtime v0.25 / k8s client libs
# v0.37, so the API server is the newest 1.37.x whose source the Go module
# proxy serves (v1.37.2 is listed there but its zip is refused, v1.37.1 works).
K8S_VERSION=${ENVTEST_K8S_VERSION:-1.37.1}
# etcd: the version Kubernetes 1.37.1 itself ships with and is tested against
# (its go.mod requires go.etcd.io/etcd/* v3.7.0; build/dependencies.yaml: 3.7.0).
ETCD_VERSION=${ENVTEST_ETCD_VERSION:-3.7.0}
# setup-envtest: the release matching controller-runtime v0.25 on the proxy.
SETUP_ENVTEST_VERSION=v0.25.1
DOWNLOAD_TIMEOUT=${ENVTEST_DOWNLOAD_TIMEOUT:-60}
# -----------------------------------------------------------------------------

root=$(cd "$(dirname "$0")/.." && pwd)
# The build modules live inside this checkout, whose go.work must not claim them.
export GOWORK=off

log() { printf 'envtest: %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }
# shellcheck source=lib/k8s-module.sh
. "$(dirname "$0")/lib/k8s-module.sh"
started=$(date +%s)
has_bins() { [[ -x $1/kube-apiserver && -x $1/etcd ]]; }
now() { date +%s; }

# 1. An explicit KUBEBUILDER_ASSETS wins when it is usable.
if [[ -n ${KUBEBUILDER_ASSETS:-} ]]; then
  if has_bins "$KUBEBUILDER_ASSETS"; then
    log "using KUBEBUILDER_ASSETS=$KUBEBUILDER_ASSETS"
    (cd "$KUBEBUILDER_ASSETS" && pwd)
    exit 0
  fi
  log "KUBEBUILDER_ASSETS=$KUBEBUILDER_ASSETS lacks kube-apiserver or etcd; ignoring it"
fi

command -v go >/dev/null || die "go is not on PATH"
goos=$(go env GOOS)
goarch=$(go env GOARCH)
store="$root/bin/k8s"
cache="$store/$K8S_VERSION-$goos-$goarch"
stamp=.envtest-source

# A cache entry is good when both binaries exist and, if we built it, it was
# built with the etcd pinned now (the stamp of a download names no etcd).
cache_ok() {
  has_bins "$cache" || return 1
  ! grep -q '^etcd=' "$cache/$stamp" 2>/dev/null || grep -qx "etcd=v$ETCD_VERSION" "$cache/$stamp"
}
use_cache() {
  log "using $cache ($(tr '\n' ' ' <"$cache/$stamp" 2>/dev/null || echo 'from setup-envtest'))"
  printf '%s\n' "$cache"
  exit 0
}

# 2. The cache, checked before and after taking the lock: another run may have
# just filled it while we waited.
cache_ok && use_cache
mkdir -p "$store" "$root/.cache"
if command -v flock >/dev/null; then
  exec 9>"$root/.cache/envtest.lock"
  if ! flock -n 9; then
    log "another hack/envtest.sh is preparing binaries; waiting for it"
    flock 9
  fi
  # Holding the lock, any temp dir left is from a killed run.
  for d in "$store"/.tmp-*; do
    if [[ -e $d ]]; then chmod -R u+w "$d" && rm -rf "$d"; fi
  done
fi
cache_ok && use_cache
if [[ -e $cache ]]; then
  log "discarding stale $cache (missing binaries or other etcd version)"
  chmod -R u+w "$cache" && rm -rf "$cache"
fi

tmp=$(mktemp -d "$store/.tmp-$K8S_VERSION.XXXXXX")
# shellcheck disable=SC2317 # called by the trap
cleanup() { chmod -R u+w "$tmp" 2>/dev/null || true; rm -rf "$tmp"; }
trap cleanup EXIT

# install_cache DIR STAMP_TEXT: atomically make DIR the cache entry.
install_cache() {
  local dir=$1
  printf '%s\n' "${@:2}" >"$dir/$stamp"
  chmod 0755 "$dir"
  mv "$dir" "$cache"
  log "cached in $cache (this run took $(($(now) - started))s)"
  printf '%s\n' "$cache"
  exit 0
}

# 3. setup-envtest: fast where the internet is reachable. Its store layout is
# <bin-dir>/k8s/<version>-<os>-<arch>; download into a temp store and rename.
# Offline machines (no DNS for the download host, no proxy) skip it at once
# instead of compiling setup-envtest only to watch it fail.
download_reachable() {
  [[ -n ${HTTPS_PROXY:-${https_proxy:-}} ]] && return 0
  command -v getent >/dev/null || return 0
  timeout 5 getent hosts raw.githubusercontent.com >/dev/null 2>&1
}
if [[ ${ENVTEST_SKIP_DOWNLOAD:-} == 1 ]]; then
  log "ENVTEST_SKIP_DOWNLOAD=1: not trying setup-envtest"
elif ! download_reachable; then
  log "raw.githubusercontent.com does not resolve (offline?): not trying setup-envtest"
else
  t0=$(now)
  tool="$root/bin/setup-envtest-$SETUP_ENVTEST_VERSION"
  if [[ ! -x $tool ]]; then
    log "installing setup-envtest $SETUP_ENVTEST_VERSION (Go module proxy)"
    if GOBIN="$tmp/gobin" go install "sigs.k8s.io/controller-runtime/tools/setup-envtest@$SETUP_ENVTEST_VERSION" >&2; then
      mv -f "$tmp/gobin/setup-envtest" "$tool"
    fi
  fi
  if [[ -x $tool ]]; then
    log "setup-envtest use $K8S_VERSION (timeout ${DOWNLOAD_TIMEOUT}s)"
    if out=$(timeout "$DOWNLOAD_TIMEOUT" "$tool" use "$K8S_VERSION" --bin-dir "$tmp/store" -p path 2> >(sed 's/^/setup-envtest: /' >&2)) &&
      has_bins "$out"; then
      log "setup-envtest downloaded $K8S_VERSION in $(($(now) - t0))s"
      chmod u+w "$out"
      install_cache "$out" "source=setup-envtest $SETUP_ENVTEST_VERSION" "kube-apiserver=v$K8S_VERSION"
    fi
    log "setup-envtest failed after $(($(now) - t0))s; building from source instead"
  else
    log "could not install setup-envtest; building from source instead"
  fi
fi

# 4. Build from source via the Go module proxy.
build_root="$root/.cache/envtest-build"
out="$tmp/bin"
mkdir -p "$build_root" "$out"
export CGO_ENABLED=0

# new_module DIR MODPATH: a fresh throwaway module in DIR, outside any workspace.
new_module() {
  rm -rf "$1" && mkdir -p "$1"
  (cd "$1" && go mod init "$2" >/dev/null 2>&1)
}

# kube-apiserver ----------------------------------------------------------------
t0=$(now)
k8s_mod=$K8S_MODULE
apiserver_mod="$build_root/kube-apiserver-v$K8S_VERSION"
k8s_module "$apiserver_mod" siteplane.dev/envtest-build/kube-apiserver "$K8S_VERSION" kube-apiserver
log "resolved in $(($(now) - t0))s"
vflags=$(k8s_version_ldflags "$K8S_VERSION")

t0=$(now)
log "building kube-apiserver v$K8S_VERSION (minutes when the Go build cache is cold)"
(cd "$apiserver_mod" && nice -n 10 go build -trimpath -ldflags="-s -w$vflags" \
  -o "$out/kube-apiserver" "$k8s_mod/cmd/kube-apiserver" >&2) || die "building kube-apiserver failed"
log "built kube-apiserver in $(($(now) - t0))s"

# etcd --------------------------------------------------------------------------
t0=$(now)
etcd_mod="$build_root/etcd-v$ETCD_VERSION"
new_module "$etcd_mod" siteplane.dev/envtest-build/etcd
cat >"$etcd_mod/main.go" <<'EOF'
// Command etcd is upstream's etcd server (etcdmain), built from the module proxy.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() { etcdmain.Main(os.Args) }
EOF
log "resolving etcd v$ETCD_VERSION dependencies (go mod tidy)"
(cd "$etcd_mod" && go mod edit -require="go.etcd.io/etcd/server/v3@v$ETCD_VERSION" && go mod tidy >&2) ||
  die "go mod tidy failed in $etcd_mod"
log "building etcd v$ETCD_VERSION"
(cd "$etcd_mod" && nice -n 10 go build -trimpath -ldflags="-s -w" -o "$out/etcd" . >&2) || die "building etcd failed"
log "built etcd in $(($(now) - t0))s"

"$out/kube-apiserver" --version >&2 || die "the built kube-apiserver does not run"
"$out/etcd" --version >&2 || die "the built etcd does not run"
install_cache "$out" "source=built from Go module proxy by hack/envtest.sh ($(go env GOVERSION))" \
  "kube-apiserver=v$K8S_VERSION" "etcd=v$ETCD_VERSION"
