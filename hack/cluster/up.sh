#!/usr/bin/env bash
# hack/cluster/up.sh — a real single-node Kubernetes cluster as host processes
# (containerd + etcd + kube-apiserver + kube-controller-manager +
# kube-scheduler + kubelet + kube-proxy + CoreDNS, and metrics-server as a
# pod when its image is among the archives), after
# ../shared/reference/local-cluster.md. Needs root. Prints the admin
# kubeconfig's path on stdout; timings and logs go to stderr and $STATE/logs.
#
#   hack/cluster/up.sh [ARCHIVE.tar ...]   # OCI archives to import (no registry)
#
# It refuses to start when an address or port it needs is taken, and fails
# (never hangs) when a component is not up in time. hack/cluster/down.sh
# removes everything it made.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/env.sh"
log() { printf 'cluster-up: %6.1fs %s\n' "$(awk "BEGIN{print $(date +%s.%N)-$t0}")" "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }
t0=$(date +%s.%N)
[[ $(id -u) == 0 ]] || die "needs root (containerd, kubelet, iptables)"

# --- refuse to start unless everything stays on this machine ---------------
if [[ -e $RUN/up ]]; then die "a cluster is already up (hack/cluster/down.sh first)"; fi
if ip -4 -o addr show | grep -v ' lo ' | grep -q " $NODE_IP/"; then die "$NODE_IP is on another interface"; fi
for net in "$POD_CIDR" "$SERVICE_CIDR"; do
  if ip -4 route show | awk '{print $1}' | grep -qx "$net"; then die "$net is already routed on this host"; fi
done
busy=$(ss -Htln 2>/dev/null | awk '{print $4}' | grep -E "(:6443|:2379|:2380|:10250|:10256|:10257|:10259|$NODE_IP:53)$" || true)
[[ -z $busy ]] || die "ports in use: $busy"
for b in containerd runc ctr iptables ip openssl; do command -v $b >/dev/null || die "$b missing (hack/cluster/prereqs.sh)"; done
[[ -x /usr/lib/cni/bridge ]] || die "CNI plugins missing (hack/cluster/prereqs.sh)"

BIN=$("$here/build.sh")
export PATH=$BIN:$PATH
mkdir -p "$STATE/logs" "$STATE/etc" "$RUN"
L=$STATE/logs
touch "$RUN/up"
start() { local n=$1; shift; nohup "$@" >"$L/$n.log" 2>&1 & echo $! >"$RUN/$n.pid"; }
# wait_for WHAT SECONDS CMD...: fail, do not hang.
wait_for() {
  local what=$1 secs=$2; shift 2
  local end=$((SECONDS + secs))
  until "$@" >/dev/null 2>&1; do
    ((SECONDS < end)) || die "$what: not within ${secs}s (logs: $L)"
    sleep 0.2
  done
  log "$what"
}
kc() { timeout 20 kubectl --kubeconfig "$KUBECONFIG_FILE" --server "https://$NODE_IP:6443" "$@"; }

# --- host ----------------------------------------------------------------
sysctl -n net.ipv4.ip_forward >"$RUN/ip_forward.orig"
# The kubelet writes pod logs to /var/log/pods and /var/log/containers; down.sh removes what appears there.
ls -A /var/log/pods /var/log/containers 2>/dev/null >"$RUN/logs.before" || true
sysctl -qw net.ipv4.ip_forward=1
ip -4 -o addr show dev lo | grep -q " $NODE_IP/32 " || { ip addr add "$NODE_IP/32" dev lo; touch "$RUN/node-ip-added"; }
rm -rf "$STATE/pki" && "$here/pki.sh" "$STATE/pki"
log "pki"

# --- containerd ------------------------------------------------------------
mkdir -p "$STATE/etc/cni" "$STATE/etc/containerd/certs.d"
cat >"$STATE/etc/cni/10-siteplane-e2e.conflist" <<JSON
{"cniVersion": "1.0.0", "name": "siteplane-e2e", "plugins": [
  {"type": "bridge", "bridge": "$BRIDGE", "isGateway": true, "ipMasq": true, "hairpinMode": true,
   "ipam": {"type": "host-local", "ranges": [[{"subnet": "$POD_CIDR"}]], "routes": [{"dst": "0.0.0.0/0"}],
            "dataDir": "$STATE/cni-ipam"}},
  {"type": "portmap", "capabilities": {"portMappings": true}}]}
JSON
# The CNI firewall plugin is left out on purpose (local-cluster.md §9): it
# accepts pod traffic before kube-proxy can reject connections to a Service
# with no endpoints, so such a request hangs instead of failing at once.
cat >"$STATE/etc/containerd/config.toml" <<TOML
version = 2
root = "$STATE/containerd"
state = "$RUN/containerd"
[grpc]
  address = "$CTR_SOCK"
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "siteplane.local/pause:3.10"
  enable_unprivileged_ports = true
  # This machine drops CAP_SYS_RESOURCE: a negative oom_score_adj makes runc
  # fail with "can't get final child's PID from pipe: EOF".
  restrict_oom_score_adj = true
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        SystemdCgroup = false
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "$STATE/etc/cni"
  [plugins."io.containerd.grpc.v1.cri".registry]
    config_path = "$STATE/etc/containerd/certs.d"
TOML
start containerd containerd --config "$STATE/etc/containerd/config.toml"
wait_for "containerd" 30 bash -c "[[ -S $CTR_SOCK ]] && timeout 3 ctr --address $CTR_SOCK version"
for a in "$@"; do
  timeout 120 ctr --address "$CTR_SOCK" -n k8s.io images import --all-platforms "$a" >/dev/null || die "import $a"
done
ctr --address "$CTR_SOCK" -n k8s.io images label siteplane.local/pause:3.10 io.cri-containerd.pinned=pinned >/dev/null 2>&1 ||
  die "the pause image siteplane.local/pause:3.10 is missing (E2E_IMAGES=1 make images, then pass .cache/images/pause.tar)"
log "imported $# image archives"

# --- control plane ---------------------------------------------------------
P=$STATE/pki
start etcd etcd --name siteplane-e2e --data-dir "$STATE/etcd" \
  --listen-client-urls http://127.0.0.1:2379 --advertise-client-urls http://127.0.0.1:2379 \
  --listen-peer-urls http://127.0.0.1:2380 --initial-advertise-peer-urls http://127.0.0.1:2380 \
  --initial-cluster siteplane-e2e=http://127.0.0.1:2380 --listen-metrics-urls http://127.0.0.1:2381
wait_for "etcd" 60 curl -sf http://127.0.0.1:2379/health
start apiserver kube-apiserver --etcd-servers=http://127.0.0.1:2379 \
  --secure-port=6443 --bind-address="$NODE_IP" --advertise-address="$NODE_IP" \
  --service-cluster-ip-range="$SERVICE_CIDR" --kubelet-preferred-address-types=InternalIP \
  --client-ca-file="$P/ca.crt" --tls-cert-file="$P/apiserver.crt" --tls-private-key-file="$P/apiserver.key" \
  --kubelet-client-certificate="$P/apiserver-kubelet-client.crt" --kubelet-client-key="$P/apiserver-kubelet-client.key" \
  --service-account-key-file="$P/sa.pub" --service-account-signing-key-file="$P/sa.key" \
  --service-account-issuer=https://kubernetes.default.svc.cluster.local \
  --authorization-mode=Node,RBAC --allow-privileged=true --enable-admission-plugins=NodeRestriction \
  --requestheader-client-ca-file="$P/front-proxy-ca.crt" --requestheader-allowed-names=front-proxy-client \
  --requestheader-username-headers=X-Remote-User --requestheader-group-headers=X-Remote-Group \
  --requestheader-extra-headers-prefix=X-Remote-Extra- \
  --proxy-client-cert-file="$P/front-proxy-client.crt" --proxy-client-key-file="$P/front-proxy-client.key" \
  --enable-aggregator-routing=true --v=1
# --enable-aggregator-routing: the API server calls an aggregated API
# (metrics.k8s.io) at its endpoint's pod IP, routed by the host to the pod
# bridge, instead of through the Service VIP.
wait_for "kube-apiserver" 120 kc get --raw /readyz
start kcm kube-controller-manager --kubeconfig="$P/controller-manager.kubeconfig" \
  --authentication-kubeconfig="$P/controller-manager.kubeconfig" --authorization-kubeconfig="$P/controller-manager.kubeconfig" \
  --service-account-private-key-file="$P/sa.key" --root-ca-file="$P/ca.crt" \
  --cluster-signing-cert-file="$P/ca.crt" --cluster-signing-key-file="$P/ca.key" \
  --use-service-account-credentials=true --leader-elect=false --bind-address=127.0.0.1 --secure-port=10257 \
  --service-cluster-ip-range="$SERVICE_CIDR" --allocate-node-cidrs=true \
  --cluster-cidr="$POD_CIDR" --node-cidr-mask-size=16 \
  --horizontal-pod-autoscaler-sync-period=5s --v=1
# The HPA reads metrics every 5 s (default 15 s), so the e2e sees a scale-up
# within one metrics-server resolution (10 s) plus 5 s of a load change.
start scheduler kube-scheduler --kubeconfig="$P/scheduler.kubeconfig" \
  --authentication-kubeconfig="$P/scheduler.kubeconfig" --authorization-kubeconfig="$P/scheduler.kubeconfig" \
  --leader-elect=false --bind-address=127.0.0.1 --secure-port=10259 --v=1

# --- node ------------------------------------------------------------------
start kube-proxy kube-proxy --kubeconfig="$P/kube-proxy.kubeconfig" --hostname-override="$NODE_NAME" \
  --cluster-cidr="$POD_CIDR" --proxy-mode=iptables --nodeport-addresses="$NODE_IP/32" \
  --metrics-bind-address=127.0.0.1:10249 --healthz-bind-address=127.0.0.1:10256 --v=1
cat >"$STATE/etc/kubelet.yaml" <<YAML
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
# This host is cgroup v1 (hybrid); kubelet >= 1.35 refuses it unless told.
failCgroupV1: false
cgroupDriver: cgroupfs
containerRuntimeEndpoint: unix://$CTR_SOCK
authentication:
  anonymous: {enabled: false}
  webhook: {enabled: true}
  x509: {clientCAFile: $P/ca.crt}
authorization: {mode: Webhook}
tlsCertFile: $P/kubelet-serving.crt
tlsPrivateKeyFile: $P/kubelet-serving.key
clusterDomain: cluster.local
clusterDNS: [$DNS_IP]
resolvConf: /etc/resolv.conf
failSwapOn: false
address: $NODE_IP
healthzBindAddress: 127.0.0.1
port: 10250
readOnlyPort: 0
rotateCertificates: false
serializeImagePulls: false
# Mounted Secrets and ConfigMaps follow their objects within ~10 s (default
# 1 min), so key rotation is observable inside a short grace period.
syncFrequency: 10s
enforceNodeAllocatable: [pods]
evictionHard: {memory.available: "100Mi", nodefs.available: "1%", imagefs.available: "1%"}
imageGCHighThresholdPercent: 100
maxPods: 110
YAML
start kubelet kubelet --config="$STATE/etc/kubelet.yaml" --kubeconfig="$P/kubelet.kubeconfig" \
  --root-dir="$STATE/kubelet" --hostname-override="$NODE_NAME" --node-ip="$NODE_IP" --v=1
# CoreDNS: cluster names only; everything else is NXDOMAIN, so no query leaves the machine.
cat >"$STATE/etc/Corefile" <<CORE
cluster.local:53 in-addr.arpa:53 ip6.arpa:53 {
    bind $NODE_IP
    errors
    health 127.0.0.1:8082
    kubernetes cluster.local in-addr.arpa ip6.arpa {
        kubeconfig $P/admin.kubeconfig siteplane-e2e
        pods insecure
        fallthrough in-addr.arpa ip6.arpa
    }
    cache 30
}
.:53 {
    bind $NODE_IP
    template ANY ANY {
        rcode NXDOMAIN
    }
}
CORE
start coredns coredns -conf "$STATE/etc/Corefile"
kc apply -f - >/dev/null <<YAML
apiVersion: v1
kind: Service
metadata: {name: kube-dns, namespace: kube-system, labels: {k8s-app: kube-dns}}
spec:
  clusterIP: $DNS_IP
  ports:
  - {name: dns, port: 53, protocol: UDP, targetPort: 53}
  - {name: dns-tcp, port: 53, protocol: TCP, targetPort: 53}
---
apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata: {name: kube-dns-host, namespace: kube-system, labels: {kubernetes.io/service-name: kube-dns}}
addressType: IPv4
ports:
- {name: dns, port: 53, protocol: UDP}
- {name: dns-tcp, port: 53, protocol: TCP}
endpoints:
- addresses: [$NODE_IP]
YAML
# Storage: no provisioner runs here, so a default StorageClass without one
# and a few pre-made hostPath volumes (world-writable: the services run as
# a non-root user, and hostPath ignores fsGroup) let claims that name no
# class bind, as on a cluster with a provisioner. Retained volumes are not
# reused; `make cluster-down` removes them with the state directory.
mkdir -p "$STATE/pv"
pvs=""
for i in 1 2 3 4 5 6 7 8; do
  install -d -m 0777 "$STATE/pv/vol$i"
  chmod 0777 "$STATE/pv/vol$i" # not masked by umask
  pvs+="---
apiVersion: v1
kind: PersistentVolume
metadata: {name: local-vol$i, labels: {siteplane.dev/local-cluster: \"true\"}}
spec:
  storageClassName: local
  capacity: {storage: 100Gi}
  accessModes: [ReadWriteOnce, ReadWriteMany]
  persistentVolumeReclaimPolicy: Retain
  hostPath: {path: $STATE/pv/vol$i, type: Directory}
"
done
kc apply -f - >/dev/null <<YAML
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: local
  annotations: {storageclass.kubernetes.io/is-default-class: "true"}
provisioner: kubernetes.io/no-provisioner
volumeBindingMode: Immediate
reclaimPolicy: Retain
$pvs
YAML
# Resource metrics (kubectl top, the HPA): metrics-server as a pod, when its
# image was imported. Not waited for: it is Available after its first scrape
# (about one --metric-resolution after the node is Ready).
if ctr --address "$CTR_SOCK" -n k8s.io images ls -q 2>/dev/null | grep -q '^siteplane.local/metrics-server:'; then
  "$here/metrics-server.sh" manifests | kc apply -f - >/dev/null || die "metrics-server manifests"
  log "metrics-server applied"
fi
node_ready() { [[ $(kc get node "$NODE_NAME" -o jsonpath='{.status.conditions[?(@.type=="Ready")].status}') == True ]]; }
wait_for "node Ready" 120 node_ready
wait_for "default ServiceAccount" 60 kc get sa default
wait_for "CoreDNS" 30 curl -sf http://127.0.0.1:8082/health
log "cluster up; next: eval \"\$(hack/cluster/shellenv.sh)\" (helm, kubectl and KUBECONFIG for this shell)"
echo "$KUBECONFIG_FILE"
