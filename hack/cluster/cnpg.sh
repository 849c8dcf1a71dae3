#!/usr/bin/env bash
# hack/cluster/cnpg.sh — CloudNativePG's operator for the local cluster, from
# its Go module at a pinned release (the module proxy serves exact versions;
# it refuses CloudNativePG's list of versions, so `go install pkg@version`
# fails: the manager is built in a wrapper module that requires that one
# version, as hack/cluster/build.sh builds etcd).
#
#   hack/cluster/cnpg.sh build            # prints the static manager binary (cached outside the clone)
#   hack/cluster/cnpg.sh manifests IMAGE  # prints the operator's manifests for IMAGE (namespace cnpg-system)
#
# The manifests are the module's own config/default (CRDs, RBAC, the manager
# Deployment, the webhooks; CloudNativePG makes its webhook certificates
# itself), rendered with kubectl kustomize, with the image set, pulled never
# (it is imported into containerd, no registry) and debug logs and pprof off.
# Knobs: SITEPLANE_CACHE (default ${XDG_CACHE_HOME:-$HOME/.cache}/siteplane),
# KUBECTL (default: kubectl of hack/cluster/build.sh's cache, then PATH).
set -euo pipefail
CNPG_MODULE=github.com/cloudnative-pg/cloudnative-pg
CNPG_VERSION=v1.29.1   # keep in step with operator/internal/controller/cnpg_suite_test.go

cache=${SITEPLANE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/siteplane}
log() { printf 'cnpg: %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }
export GOWORK=off CGO_ENABLED=0

# module_dir downloads the module (once; then the module cache answers) and
# prints its directory.
module_dir() {
  local dir
  dir=$(GOFLAGS=-mod=mod go mod download -json "$CNPG_MODULE@$CNPG_VERSION" |
    sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
  [[ -d $dir ]] || die "go mod download $CNPG_MODULE@$CNPG_VERSION gave no directory"
  echo "$dir"
}

build() {
  local bin="$cache/bin/cnpg-$CNPG_VERSION"
  if [[ -x $bin/manager ]]; then log "warm: $bin/manager"; echo "$bin/manager"; return; fi
  local mod="$cache/build/cnpg-$CNPG_VERSION" t0
  t0=$(date +%s)
  mkdir -p "$cache/bin"
  rm -rf "$mod" && mkdir -p "$mod"
  # A tools file keeps the requirement through `go mod tidy`; it is never
  # compiled (a main package cannot be imported).
  printf '//go:build tools\n\npackage main\n\nimport _ "%s/cmd/manager"\n' "$CNPG_MODULE" >"$mod/tools.go"
  (cd "$mod" && go mod init siteplane.dev/cluster-build/cnpg >/dev/null 2>&1 &&
    go mod edit -require="$CNPG_MODULE@$CNPG_VERSION" && go mod tidy >&2) || die "resolving $CNPG_MODULE@$CNPG_VERSION"
  log "building the manager $CNPG_VERSION (several minutes on 2 cores with a cold Go build cache)"
  (cd "$mod" && nice -n 10 go build -trimpath -ldflags="-s -w" -o "$mod/manager" "$CNPG_MODULE/cmd/manager" >&2) ||
    die "building the manager"
  rm -rf "$bin" && mkdir -p "$bin" && mv "$mod/manager" "$bin/manager"
  log "built in $(($(date +%s) - t0))s: $bin/manager"
  echo "$bin/manager"
}

manifests() {
  local image=${1:?usage: cnpg.sh manifests IMAGE} src tmp kubectl
  kubectl=${KUBECTL:-}
  if [[ -z $kubectl ]]; then
    kubectl=$(ls "$cache"/bin/k8s-*/kubectl 2>/dev/null | head -1 || true)
    [[ -n $kubectl ]] || kubectl=$(command -v kubectl) || die "kubectl not found (hack/cluster/build.sh builds one)"
  fi
  src=$(module_dir)
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' RETURN
  # The module cache is read-only: an overlay beside a copy of config/.
  cp -r "$src/config" "$tmp/config" && chmod -R u+w "$tmp"
  mkdir -p "$tmp/overlay"
  cat >"$tmp/overlay/kustomization.yaml" <<EOF
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources:
- ../config/default
images:
- name: controller
  newName: ${image%:*}
  newTag: ${image##*:}
patches:
- target: {group: apps, version: v1, kind: Deployment, name: cnpg-controller-manager}
  patch: |-
    - op: replace
      path: /spec/template/spec/containers/0/imagePullPolicy
      value: Never
EOF
  "$kubectl" kustomize "$tmp/overlay"
}

case ${1:-} in
  build) build ;;
  manifests) shift; manifests "$@" ;;
  *) die "usage: cnpg.sh build | manifests IMAGE" ;;
esac
