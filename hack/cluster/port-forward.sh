#!/usr/bin/env bash
# hack/cluster/port-forward.sh SERVICE PORT — forward a free local port on
# 127.0.0.1 to a Service's PORT in the background, wait until it answers,
# and print the exports that name it:
#
#   eval "$(hack/cluster/port-forward.sh blog-gateway 8080)"
#   curl "$SITE/cms-json/"          # SITE=http://127.0.0.1:<free port>
#   kill "$SITE_PF_PID"             # stops the port-forward
#
# Why not `kubectl port-forward svc/x 8080:8080`: where 8080 is taken on
# 127.0.0.1, kubectl keeps running on [::1] alone, and `curl localhost:8080`
# silently reaches whatever owns 8080. kubectl picks the free port here
# (":PORT"), bound to 127.0.0.1 only, and the port is read from its output.
# NAMESPACE (default: the kubeconfig's) picks the Service's namespace.
set -euo pipefail
svc=${1:?usage: port-forward.sh SERVICE PORT}
port=${2:?usage: port-forward.sh SERVICE PORT}
log=$(mktemp "${TMPDIR:-/tmp}/port-forward.XXXXXX")
ns=()
[[ -n ${NAMESPACE:-} ]] && ns=(-n "$NAMESPACE")
# setsid: the forward outlives this script and the shell's job control.
setsid kubectl port-forward "${ns[@]}" --address 127.0.0.1 "svc/$svc" ":$port" >"$log" 2>&1 </dev/null &
pid=$!
local_port=""
for _ in $(seq 1 150); do
  local_port=$(sed -n 's/^Forwarding from 127\.0\.0\.1:\([0-9]*\) .*/\1/p' "$log" | head -1)
  [[ -n $local_port ]] && break
  if ! kill -0 "$pid" 2>/dev/null; then
    cat "$log" >&2
    exit 1
  fi
  sleep 0.2
done
if [[ -z $local_port ]]; then
  kill "$pid" 2>/dev/null || true
  echo "port-forward.sh: kubectl did not start forwarding within 30 s:" >&2
  cat "$log" >&2
  exit 1
fi
echo "port-forward.sh: 127.0.0.1:$local_port -> svc/$svc:$port (pid $pid, log $log)" >&2
printf 'export SITE=http://127.0.0.1:%s SITE_PF_PID=%s\n' "$local_port" "$pid"
