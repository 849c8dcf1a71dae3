#!/usr/bin/env bash
# hack/cluster/prereqs.sh — the Debian packages the local cluster needs
# (root). Installs only what is missing, so a warm machine pays nothing.
set -euo pipefail
pkgs=(containerd runc containernetworking-plugins iptables conntrack busybox-static postgresql-15 openssl curl iproute2)
# E2E_CNPG=1: the PostgreSQL image carries barman-cli-cloud (CloudNativePG's
# WAL archiving and backups), copied from this machine's package.
if [[ ${E2E_CNPG:-0} == 1 ]]; then pkgs+=(barman-cli-cloud); fi
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]} == 0)); then echo "prereqs: all installed" >&2; exit 0; fi
[[ $(id -u) == 0 ]] || { echo "prereqs: need root to install ${missing[*]}" >&2; exit 1; }
echo "prereqs: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
timeout 300 apt-get -o DPkg::Lock::Timeout=300 update -qq
timeout 600 apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
