#!/usr/bin/env bash
# hack/cluster/metrics-server.sh — metrics-server (the resource metrics API,
# metrics.k8s.io, that `kubectl top` and the HorizontalPodAutoscaler read) for
# the local cluster, from its Go module at a pinned release.
#
#   hack/cluster/metrics-server.sh build      # prints the static binary (cached outside the clone)
#   hack/cluster/metrics-server.sh manifests  # prints its objects (namespace kube-system)
#
# The image is built daemonless with the others: `E2E_IMAGES=1 make images`
# writes .cache/images/metrics-server.tar (siteplane.local/metrics-server,
# the binary as /metrics-server, user 65532), imported by hack/e2e.sh, never
# pulled; hack/e2e.sh applies the manifests once the cluster is up.
# The manifests are upstream's base cut to what the server itself needs: its
# ServiceAccount, read access to nodes, pods and nodes/metrics, token and
# access review (system:auth-delegator), the front-proxy CA
# (extension-apiserver-authentication-reader) and the APIService. Left out:
# system:aggregated-metrics-reader (it only lets view/edit/admin users read
# the metrics; the HPA controller's own role already may).
# The kubelet's serving certificate is signed by the cluster CA
# (hack/cluster/pki.sh) for the node IP, so the server verifies it with the
# CA every pod is given (no --kubelet-insecure-tls; KUBELET_INSECURE_TLS=1
# for a cluster whose kubelets serve self-signed certificates, as kind's do).
# Knobs: SITEPLANE_CACHE (default ${XDG_CACHE_HOME:-$HOME/.cache}/siteplane),
# METRIC_RESOLUTION (default 10s: how often it scrapes the kubelet; the HPA
# sees a load change within this plus its own sync period).
set -euo pipefail
MS_MODULE=sigs.k8s.io/metrics-server
MS_VERSION=v0.9.0   # keep in step with test/cmd/images (MetricsServerRef)
IMAGE=siteplane.local/metrics-server:${MS_VERSION#v}

cache=${SITEPLANE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/siteplane}
log() { printf 'metrics-server: %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

build() {
  local dir="$cache/bin/metrics-server-$MS_VERSION" tmp t0
  if [[ -x $dir/metrics-server ]]; then log "warm: $dir/metrics-server"; echo "$dir/metrics-server"; return; fi
  command -v go >/dev/null || die "go is not on PATH"
  mkdir -p "$cache/bin"
  exec 9>"$cache/bin/.metrics-server.lock"
  flock 9
  if [[ -x $dir/metrics-server ]]; then echo "$dir/metrics-server"; return; fi
  t0=$(date +%s)
  log "building $MS_VERSION (a few minutes on 2 cores with a cold Go build cache)"
  tmp=$(mktemp -d "$cache/bin/.metrics-server.XXXXXX")
  # Its go.mod has no replace directives, so `go install pkg@version` builds
  # it on its own terms (not this checkout's go.work, its own go.sum).
  GOWORK=off GOFLAGS= CGO_ENABLED=0 GOBIN="$tmp" nice -n 10 go install -trimpath \
    -ldflags="-s -w -X k8s.io/client-go/pkg/version.gitVersion=$MS_VERSION" \
    "$MS_MODULE/cmd/metrics-server@$MS_VERSION" >&2 || { rm -rf "$tmp"; die "building $MS_MODULE@$MS_VERSION"; }
  rm -rf "$dir" && mv "$tmp" "$dir"
  log "built in $(($(date +%s) - t0))s: $dir/metrics-server"
  echo "$dir/metrics-server"
}

# binding KIND NAME NAMESPACE ROLE-KIND ROLE: a binding of the role to
# metrics-server's ServiceAccount, after a document separator.
binding() {
  cat <<YAML
---
apiVersion: rbac.authorization.k8s.io/v1
kind: $1
metadata: {name: "$2"${3:+, namespace: $3}}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: $4, name: "$5"}
subjects: [{kind: ServiceAccount, name: metrics-server, namespace: kube-system}]
YAML
}

manifests() {
  local kubelet_tls=--kubelet-certificate-authority=/var/run/secrets/kubernetes.io/serviceaccount/ca.crt
  if [[ ${KUBELET_INSECURE_TLS:-0} == 1 ]]; then kubelet_tls=--kubelet-insecure-tls; fi
  cat <<YAML
apiVersion: v1
kind: ServiceAccount
metadata: {name: metrics-server, namespace: kube-system}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: "system:metrics-server"}
rules:
- {apiGroups: [""], resources: [nodes/metrics], verbs: [get]}
- {apiGroups: [""], resources: [pods, nodes], verbs: [get, list, watch]}
$(binding ClusterRoleBinding "system:metrics-server" "" ClusterRole "system:metrics-server")
$(binding ClusterRoleBinding "metrics-server:system:auth-delegator" "" ClusterRole "system:auth-delegator")
$(binding RoleBinding metrics-server-auth-reader kube-system Role extension-apiserver-authentication-reader)
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: metrics-server, namespace: kube-system, labels: {k8s-app: metrics-server}}
spec:
  selector: {matchLabels: {k8s-app: metrics-server}}
  template:
    metadata: {labels: {k8s-app: metrics-server}}
    spec:
      serviceAccountName: metrics-server
      priorityClassName: system-cluster-critical
      securityContext: {runAsNonRoot: true, runAsUser: 65532, runAsGroup: 65532, seccompProfile: {type: RuntimeDefault}}
      containers:
      - name: metrics-server
        image: $IMAGE
        imagePullPolicy: Never
        args:
        - --cert-dir=/tmp
        - --secure-port=10250
        - --kubelet-preferred-address-types=InternalIP
        - --kubelet-use-node-status-port
        - $kubelet_tls
        - --metric-resolution=${METRIC_RESOLUTION:-10s}
        # shorter than the resolution (it refuses to start otherwise)
        - --kubelet-request-timeout=5s
        ports: [{name: https, containerPort: 10250}]
        readinessProbe: {httpGet: {path: /readyz, port: https, scheme: HTTPS}, periodSeconds: 2, failureThreshold: 3}
        livenessProbe: {httpGet: {path: /livez, port: https, scheme: HTTPS}, periodSeconds: 10, failureThreshold: 3}
        resources: {requests: {cpu: 20m, memory: 64Mi}}
        securityContext: {readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, capabilities: {drop: [ALL]}}
        volumeMounts: [{name: tmp, mountPath: /tmp}]
      volumes: [{name: tmp, emptyDir: {}}]
---
apiVersion: v1
kind: Service
metadata: {name: metrics-server, namespace: kube-system, labels: {k8s-app: metrics-server}}
spec:
  selector: {k8s-app: metrics-server}
  ports: [{name: https, port: 443, targetPort: https}]
---
apiVersion: apiregistration.k8s.io/v1
kind: APIService
metadata: {name: v1beta1.metrics.k8s.io}
spec:
  service: {name: metrics-server, namespace: kube-system}
  group: metrics.k8s.io
  version: v1beta1
  # The server's certificate is self-signed in its emptyDir (--cert-dir).
  insecureSkipTLSVerify: true
  groupPriorityMinimum: 100
  versionPriority: 100
YAML
}

case ${1:-} in
  build) build ;;
  manifests) manifests ;;
  *) die "usage: metrics-server.sh build | manifests" ;;
esac
