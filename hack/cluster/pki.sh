#!/usr/bin/env bash
# hack/cluster/pki.sh DIR — a throw-away PKI and kubeconfigs for the local cluster.
set -euo pipefail
source "$(dirname "$0")/env.sh"
D=$1
mkdir -p "$D" && cd "$D"
APISERVER=https://$NODE_IP:6443
q() { "$@" >/dev/null 2>&1; }
ca() { q openssl req -x509 -newkey rsa:2048 -nodes -keyout "$1.key" -subj "/CN=$2" -days 30 -out "$1.crt"; }
cert() { # name CN O SANs usage [ca]
  local n=$1 cn=$2 o=$3 sans=$4 usage=$5 c=${6:-ca}
  q openssl req -newkey rsa:2048 -nodes -keyout "$n.key" -subj "/CN=$cn${o:+/O=$o}" -out "$n.csr"
  { echo "basicConstraints=CA:FALSE"; echo "keyUsage=critical,digitalSignature,keyEncipherment"
    echo "extendedKeyUsage=$usage"; [[ -n $sans ]] && echo "subjectAltName=$sans"; } >"$n.ext"
  q openssl x509 -req -in "$n.csr" -CA "$c.crt" -CAkey "$c.key" -CAcreateserial -days 30 -extfile "$n.ext" -out "$n.crt"
  rm -f "$n.csr" "$n.ext"
}
ca ca siteplane-e2e-ca
ca front-proxy-ca siteplane-e2e-front-proxy-ca
cert apiserver kube-apiserver "" "DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local,IP:127.0.0.1,IP:$NODE_IP,IP:10.0.0.1" serverAuth
cert apiserver-kubelet-client kube-apiserver-kubelet-client system:masters "" clientAuth
cert admin kubernetes-admin system:masters "" clientAuth
cert controller-manager system:kube-controller-manager "" "" clientAuth
cert scheduler system:kube-scheduler "" "" clientAuth
cert kube-proxy system:kube-proxy "" "" clientAuth
cert kubelet "system:node:$NODE_NAME" system:nodes "" clientAuth
cert kubelet-serving "system:node:$NODE_NAME" system:nodes "DNS:$NODE_NAME,IP:$NODE_IP" serverAuth
cert front-proxy-client front-proxy-client "" "" clientAuth front-proxy-ca
q openssl genrsa -out sa.key 2048
q openssl rsa -in sa.key -pubout -out sa.pub
for n in admin controller-manager scheduler kubelet kube-proxy; do
  cat >"$n.kubeconfig" <<KC
apiVersion: v1
kind: Config
clusters:
- cluster: {certificate-authority: $D/ca.crt, server: $APISERVER}
  name: siteplane-e2e
users:
- name: $n
  user: {client-certificate: $D/$n.crt, client-key: $D/$n.key}
contexts:
- context: {cluster: siteplane-e2e, user: $n}
  name: siteplane-e2e
current-context: siteplane-e2e
KC
done
chmod 600 ./*.key
