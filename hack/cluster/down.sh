#!/usr/bin/env bash
# hack/cluster/down.sh — stop what hack/cluster/up.sh started and remove
# what it left: processes, pod sandboxes and their mounts, network
# namespaces, the bridge, iptables chains, the node address on lo, and
# ip_forward as it was. Safe to run twice. KEEP_STATE=1 keeps $STATE (logs).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/env.sh"
BIN=$(SITEPLANE_CLUSTER_NO_BUILD=1 "$here/build.sh" 2>/dev/null || true)
[[ -n $BIN ]] && export PATH=$BIN:$PATH
kc() { timeout 10 kubectl --kubeconfig "$KUBECONFIG_FILE" --server "https://$NODE_IP:6443" "$@"; }
# Let the kubelet stop pods properly (CNI DEL, unmounts) while all runs.
if [[ -f $RUN/kubelet.pid && -f $KUBECONFIG_FILE ]] && kc get --raw /readyz >/dev/null 2>&1; then
  for ns in $(kc get ns -o jsonpath='{.items[*].metadata.name}'); do
    kc -n "$ns" delete deploy,sts,ds,rs,job,pod --all --grace-period=1 --wait=false >/dev/null 2>&1
  done
  for _ in $(seq 1 60); do
    [[ -z $(timeout 5 ctr --address "$CTR_SOCK" -n k8s.io tasks ls -q 2>/dev/null) ]] && break
    sleep 0.5
  done
fi
stop() { # SIGTERM, then SIGKILL after 10 s (an apiserver can wait long on a dead etcd)
  local n=$1 p
  [[ -f $RUN/$n.pid ]] || return 0
  p=$(cat "$RUN/$n.pid"); rm -f "$RUN/$n.pid"
  kill "$p" 2>/dev/null || return 0
  for _ in $(seq 1 100); do kill -0 "$p" 2>/dev/null || return 0; sleep 0.1; done
  kill -9 "$p" 2>/dev/null
}
for n in coredns kubelet kube-proxy scheduler kcm apiserver etcd; do stop $n; done
if [[ -S $CTR_SOCK ]]; then
  for t in $(timeout 5 ctr --address "$CTR_SOCK" -n k8s.io tasks ls -q 2>/dev/null); do
    timeout 5 ctr --address "$CTR_SOCK" -n k8s.io tasks kill -s KILL "$t" >/dev/null 2>&1
  done
  sleep 0.5
  for c in $(timeout 5 ctr --address "$CTR_SOCK" -n k8s.io containers ls -q 2>/dev/null); do
    timeout 5 ctr --address "$CTR_SOCK" -n k8s.io tasks delete "$c" >/dev/null 2>&1
    timeout 5 ctr --address "$CTR_SOCK" -n k8s.io containers rm "$c" >/dev/null 2>&1
  done
fi
stop containerd
# Shims of our containerd (they name its socket's directory on their command line).
for p in $(ps -eo pid=,args= | awk -v s="$RUN/containerd" 'index($0, "containerd-shim") && index($0, s) {print $1}'); do
  kill -9 "$p" 2>/dev/null
done
# Network namespaces of our pods (recorded by the CNI results of our state dir).
for ns in $(ip netns list 2>/dev/null | awk '/^cni-/ {print $1}'); do ip netns del "$ns" 2>/dev/null; done
ip link del "$BRIDGE" 2>/dev/null
# Mounts under our directories, deepest first.
awk -v a="$STATE" -v b="$RUN" '$2 ~ "^"a || $2 ~ "^"b {print $2}' /proc/mounts | sort -r | xargs -r -n1 umount -l 2>/dev/null
# iptables: kube-proxy's, kubelet's, and the CNI bridge/portmap chains.
if command -v kube-proxy >/dev/null; then kube-proxy --cleanup >/dev/null 2>&1; fi
for t in filter nat mangle; do
  for ch in $(iptables -t $t -S 2>/dev/null | awk '$1 == "-N" && ($2 ~ /^KUBE-/ || $2 ~ /^CNI-/) {print $2}'); do
    # Rules jumping to it, deleted by number (their comments hold quotes), last first.
    for chain in $(iptables -t $t -S 2>/dev/null | awk '$1 == "-N" || $1 == "-P" {print $2}'); do
      iptables -t $t -L "$chain" --line-numbers -n 2>/dev/null | awk -v c="$ch" 'NR > 2 && $2 == c {print $1}' | sort -rn |
        while read -r n; do iptables -t $t -D "$chain" "$n" 2>/dev/null; done
    done
  done
  for ch in $(iptables -t $t -S 2>/dev/null | awk '$1 == "-N" && ($2 ~ /^KUBE-/ || $2 ~ /^CNI-/) {print $2}'); do iptables -t $t -F "$ch" 2>/dev/null; done
  for ch in $(iptables -t $t -S 2>/dev/null | awk '$1 == "-N" && ($2 ~ /^KUBE-/ || $2 ~ /^CNI-/) {print $2}'); do iptables -t $t -X "$ch" 2>/dev/null; done
done
added_ip=0
if [[ -f $RUN/node-ip-added ]]; then added_ip=1; ip addr del "$NODE_IP/32" dev lo 2>/dev/null; fi
rm -f /var/lib/cni/results/siteplane-e2e-* 2>/dev/null
if [[ -f $RUN/ip_forward.orig ]]; then sysctl -qw net.ipv4.ip_forward="$(cat "$RUN/ip_forward.orig")"; fi
if [[ -f $RUN/logs.before ]]; then
  for d in /var/log/pods /var/log/containers; do
    for f in "$d"/*; do
      [[ -e $f || -L $f ]] || continue
      grep -qxF "$(basename "$f")" "$RUN/logs.before" || rm -rf "$f"
    done
  done
fi
rm -rf "$RUN"
if [[ ${KEEP_STATE:-0} != 1 ]]; then rm -rf "$STATE"; fi
# Report anything left, so a leak fails loudly.
left=""
pgrep -f "$STATE/" >/dev/null && left+=" processes"
grep -q -e " $STATE" -e " $RUN" /proc/mounts && left+=" mounts"
ip link show "$BRIDGE" >/dev/null 2>&1 && left+=" bridge"
iptables-save 2>/dev/null | grep -qE '^:(KUBE|CNI)-' && left+=" iptables"
[[ $added_ip == 1 ]] && ip -4 -o addr show dev lo | grep -q " $NODE_IP/" && left+=" address"
if [[ -n $left ]]; then echo "cluster-down: left behind:$left" >&2; exit 1; fi
echo "cluster-down: clean" >&2
