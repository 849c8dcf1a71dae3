# hack/cluster/env.sh — the local cluster's addresses and paths (sourced).
# Every address is on this machine: the node IP on lo, the pod bridge and the
# Service VIPs exist only inside this host's network namespaces.
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
NODE_IP=10.200.0.1          # on lo (this kernel has no dummy driver)
POD_CIDR=10.88.0.0/16       # bridge $BRIDGE
SERVICE_CIDR=10.0.0.0/24
DNS_IP=10.0.0.10            # selector-less Service -> CoreDNS on $NODE_IP:53
BRIDGE=spe2e0
NODE_NAME=siteplane-e2e
# State: outside the clone (a cluster outlives no clone, but one clone's
# `down` must find what its `up` made) — one cluster per machine.
STATE=${SITEPLANE_CLUSTER_STATE:-/var/lib/siteplane-e2e}
RUN=/run/siteplane-e2e
CTR_SOCK=$RUN/containerd/containerd.sock
KUBECONFIG_FILE=$STATE/pki/admin.kubeconfig
