#!/usr/bin/env bash
# `make test-e2e`: the end-to-end suite (test/e2e, build tag e2e) on a real
# cluster. E2E_PROVIDER chooses where:
#   local    (default) a single-node cluster as host processes on this
#            machine (hack/cluster/up.sh; root), torn down at the end
#   kind     a kind cluster (E2E_KIND_CLUSTER, default siteplane-e2e; created
#            when missing), loaded with `kind load image-archive`
#   existing the cluster of KUBECONFIG, whose nodes already have the images
#            (REGISTRY=... make images pushes them)
# Every step prints its time. E2E_KEEP=1 leaves the local cluster up.
# CloudNativePG (its operator image, barman-cli-cloud in the PostgreSQL
# image, the TestCNPG steps) is in by default; E2E_CNPG=0 leaves it out
# (docs/operator.md: what it adds to a cold and a warm run).
set -euo pipefail
export E2E_CNPG=${E2E_CNPG:-1} # read by prereqs.sh, images.sh and the suite
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
export GOBIN="$root/bin" PATH="$root/bin:$PATH"
provider=${E2E_PROVIDER:-local}
began=$SECONDS last=$SECONDS name=""
step() {
  [[ -n $name ]] && printf '<== %s: %ds\n' "$name" $((SECONDS - last))
  name=$* last=$SECONDS
  printf '\n==> %s\n' "$*"
}

case $provider in
  local | kind | existing) ;;
  *) echo "e2e.sh: E2E_PROVIDER=$provider: want local, kind or existing" >&2; exit 2 ;;
esac

if [[ $provider == local ]]; then
  step "host packages (containerd, runc, CNI plugins, iptables, PostgreSQL 15 for its image)"
  hack/cluster/prereqs.sh
  step "Kubernetes v1.37.1, etcd and CoreDNS binaries (cached outside the clone)"
  hack/cluster/build.sh >/dev/null
fi

step "helm"
SITEPLANE_HELM=$(hack/helm.sh)
export SITEPLANE_HELM

images=.cache/images
if [[ $provider != existing ]]; then
  step "images (make images, with pause, PostgreSQL, versitygw, metrics-server and, with E2E_CNPG=1, CloudNativePG)"
  E2E_IMAGES=1 IMAGES_DIR="$root/$images" hack/images.sh
fi
archives=()
for f in pause postgres versitygw metrics-server gateway content media marketplace operator; do archives+=("$root/$images/$f.tar"); done
# CloudNativePG's operator image too (E2E_CNPG=1, the default; its
# manager's first build takes 2–3 minutes on 2 idle cores, then it is cached).
if [[ $E2E_CNPG == 1 ]]; then archives+=("$root/$images/cnpg.tar"); fi

case $provider in
  local)
    step "cluster up (hack/cluster/up.sh)"
    # A cluster this run did not start is not this run's to tear down: refuse
    # before the exit trap exists (up.sh refuses too, but after the trap the
    # refusal would take the other run's cluster down).
    if (source hack/cluster/env.sh && [[ -e $RUN/up ]]); then
      echo "e2e.sh: a cluster is already up (another run's?); hack/cluster/down.sh first" >&2
      exit 1
    fi
    if [[ ${E2E_KEEP:-0} != 1 ]]; then
      trap 'printf "\n==> cluster down\n"; t=$SECONDS; hack/cluster/down.sh; printf "<== cluster down: %ds\n" $((SECONDS - t))' EXIT
    fi
    KUBECONFIG=$(hack/cluster/up.sh "${archives[@]}")
    export KUBECONFIG
    source hack/cluster/env.sh
    export E2E_PV_DIR=$STATE/pv
    mkdir -p "$E2E_PV_DIR"
    ;;
  kind)
    command -v kind >/dev/null || { echo "e2e.sh: kind is not on PATH" >&2; exit 1; }
    cluster=${E2E_KIND_CLUSTER:-siteplane-e2e}
    step "kind cluster $cluster"
    kind get clusters 2>/dev/null | grep -qx "$cluster" || kind create cluster --name "$cluster" --wait 120s
    KUBECONFIG="$root/.cache/kind-$cluster.kubeconfig"
    kind get kubeconfig --name "$cluster" >"$KUBECONFIG"
    export KUBECONFIG
    step "kind load image-archive"
    for a in "${archives[@]}"; do [[ $a == */pause.tar ]] || kind load image-archive --name "$cluster" "$a"; done
    step "metrics-server (kubectl top, the HPA)"
    KUBELET_INSECURE_TLS=1 hack/cluster/metrics-server.sh manifests | kubectl apply -f - >/dev/null
    ;;
  existing)
    [[ -n ${KUBECONFIG:-} && -f ${KUBECONFIG%%:*} ]] || { echo "e2e.sh: set KUBECONFIG to an existing cluster's kubeconfig" >&2; exit 1; }
    ;;
esac

step "go test -tags e2e ./test/e2e"
set +e
E2E_PROVIDER=$provider go test -count=1 -tags e2e -timeout "${E2E_TIMEOUT:-30m}" -v ./test/e2e/ "$@" 2>&1 |
  grep -vE '^=== (RUN|PAUSE|CONT)'
rc=${PIPESTATUS[0]} # go test's status (grep only filters the noise)
set -e
printf '<== %s: %ds\nmake test-e2e (%s): %ds in all\n' "$name" $((SECONDS - last)) "$provider" $((SECONDS - began))
exit "$rc"
