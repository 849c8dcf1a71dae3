#!/usr/bin/env bash
# hack/cluster/shellenv.sh — print the exports that give this shell the
# project's helm and kubectl and the cluster's kubeconfig:
#
#   eval "$(hack/cluster/shellenv.sh)"
#
# helm: the pinned one hack/helm.sh builds into bin/ (built on first use, a
# few minutes). kubectl: the one hack/cluster/build.sh built for the local
# cluster (the same Kubernetes version, so within kubectl's version skew);
# on a machine without it (kind) the kubectl on PATH, with a warning when
# its minor version is more than one away from the server's. KUBECONFIG:
# the local cluster's, when it is up; otherwise left as it is (kind writes
# ~/.kube/config). Progress goes to stderr; stdout is only the exports.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=env.sh
source "$root/hack/cluster/env.sh"
log() { printf 'shellenv: %s\n' "$*" >&2; }

helm=$("$root/hack/helm.sh")
path=$(dirname "$helm")
kubectl=""
if k8sbin=$(SITEPLANE_CLUSTER_NO_BUILD=1 "$root/hack/cluster/build.sh" 2>/dev/null); then
  kubectl=$k8sbin/kubectl
  path+=:$k8sbin
fi
printf 'export PATH=%q:"$PATH"\n' "$path"
if [[ -f $KUBECONFIG_FILE ]]; then
  # kubectl falls back to localhost:8080 without a kubeconfig, where `make
  # run` puts the gateway; the file's existence is checked first.
  printf 'export KUBECONFIG=%q\n' "$KUBECONFIG_FILE"
  export KUBECONFIG=$KUBECONFIG_FILE
  log "local cluster: KUBECONFIG=$KUBECONFIG_FILE"
fi
kubectl=${kubectl:-$(command -v kubectl || true)}
if [[ -z $kubectl ]]; then
  log "no kubectl: hack/cluster/build.sh builds one (the local cluster's version), or install one within a minor version of the cluster"
  exit 1
fi
# Version skew: kubectl supports its server's minor version +-1.
if v=$("$kubectl" version -o json 2>/dev/null); then
  minor() { sed -n "s/.*\"$1\": *{[^}]*\"minor\": *\"\([0-9]*\).*/\1/p" <<<"$(tr -d '\n' <<<"$v")"; }
  c=$(minor clientVersion) s=$(minor serverVersion)
  if [[ -n $c && -n $s ]] && ((c - s > 1 || s - c > 1)); then
    log "WARNING: $kubectl is 1.$c, the cluster 1.$s: outside kubectl's supported skew"
  fi
fi
log "helm: $helm; kubectl: $kubectl"
