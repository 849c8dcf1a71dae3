#!/usr/bin/env bash
# hack/cluster/versitygw.sh — versitygw (an S3-compatible server; its posix
# backend keeps each bucket as a directory) for the local cluster: the e2e's
# media on S3 (test/e2e/s3_test.go), and anything else in the cluster that
# wants a bucket (CloudNativePG backups).
#
#   hack/cluster/versitygw.sh build                 # prints the static binary (hack/versitygw.sh: bin/, built once)
#   hack/cluster/versitygw.sh manifests [NAMESPACE] # prints a Deployment and Service for it (default namespace e2e-s3)
#
# The image is built daemonless with the others: `E2E_IMAGES=1 make images`
# writes .cache/images/versitygw.tar (siteplane.local/versitygw:1.8.0, the
# binary as /versitygw, user 65532), imported by hack/e2e.sh, never pulled.
# The server listens on 7070 as http://versitygw.<NAMESPACE>.svc:7070 (use
# path-style addressing), with the root credentials from the Secret
# `versitygw` (keys access-key-id, secret-access-key: create it first, e.g.
#   kubectl -n e2e-s3 create secret generic versitygw \
#     --from-literal=access-key-id=root --from-literal=secret-access-key=$(openssl rand -hex 20)
# ) and its buckets in an emptyDir: they go with the pod. Create a bucket with
# any S3 client (the e2e signs a CreateBucket itself).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
IMAGE=siteplane.local/versitygw:1.8.0 # keep in step with test/cmd/images (VersitygwRef) and hack/versitygw.sh's version

manifests() {
  local ns=${1:-e2e-s3}
  cat <<YAML
apiVersion: apps/v1
kind: Deployment
metadata: {name: versitygw, namespace: $ns, labels: {app: versitygw}}
spec:
  selector: {matchLabels: {app: versitygw}}
  strategy: {type: Recreate}
  template:
    metadata: {labels: {app: versitygw}}
    spec:
      securityContext: {runAsUser: 65532, runAsGroup: 65532, fsGroup: 65532, runAsNonRoot: true}
      containers:
      - name: versitygw
        image: $IMAGE
        imagePullPolicy: Never
        args: [--port, ":7070", --region, us-east-1, posix, /data]
        env:
        - {name: ROOT_ACCESS_KEY_ID, valueFrom: {secretKeyRef: {name: versitygw, key: access-key-id}}}
        - {name: ROOT_SECRET_ACCESS_KEY, valueFrom: {secretKeyRef: {name: versitygw, key: secret-access-key}}}
        ports: [{name: s3, containerPort: 7070}]
        readinessProbe: {tcpSocket: {port: s3}, periodSeconds: 1}
        volumeMounts: [{name: data, mountPath: /data}]
      volumes: [{name: data, emptyDir: {}}]
---
apiVersion: v1
kind: Service
metadata: {name: versitygw, namespace: $ns}
spec:
  selector: {app: versitygw}
  ports: [{name: s3, port: 7070, targetPort: s3}]
YAML
}

case ${1:-} in
  build) exec "$here/../versitygw.sh" ;;
  manifests) shift; manifests "$@" ;;
  *) echo "usage: versitygw.sh build | manifests [NAMESPACE]" >&2; exit 2 ;;
esac
