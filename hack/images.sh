#!/usr/bin/env bash
# `make images`: the product's container images, built without a daemon or a
# registry by test/cmd/images (go-containerregistry): static binaries on no
# base image, user 65532, written as OCI archives to .cache/images/ (ignored),
# with an index .cache/images/images.txt.
#
#   make images                                   # ghcr.io/siteplane/<component>:<appVersion> (+ content tag)
#   REGISTRY=127.0.0.1:5001/siteplane make images # named there, and pushed
#   TAG=0.2.0-rc1 make images                     # another release tag
#   E2E_IMAGES=1 make images                      # + pause, PostgreSQL 15 (from Debian's postgresql-15), versitygw (S3)
#                                                 #   and metrics-server (kubectl top, the HPA)
#   E2E_IMAGES=1 E2E_CNPG=1 make images           # + CloudNativePG's operator (hack/cluster/cnpg.sh build),
#                                                 #   PostgreSQL with barman-cli-cloud (CloudNativePG's backups)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out=${IMAGES_DIR:-$root/.cache/images}
args=(-root "$root" -out "$out")
if [[ -n ${REGISTRY:-} ]]; then args+=(-registry "$REGISTRY" -push); fi
if [[ -n ${TAG:-} ]]; then args+=(-tag "$TAG"); fi
if [[ ${E2E_IMAGES:-0} == 1 ]]; then
  # E2E_CNPG=1: PostgreSQL with barman-cli-cloud (CloudNativePG's backups)
  # and CloudNativePG's operator.
  barman=0
  if [[ ${E2E_CNPG:-0} == 1 ]]; then barman=1; fi
  args+=(-e2e -postgres-rootfs "$(POSTGRES_BARMAN=$barman hack/postgres-rootfs.sh "$out/postgres-rootfs")" -versitygw "$(hack/cluster/versitygw.sh build)"
    -metrics-server "$(hack/cluster/metrics-server.sh build)")
  if [[ ${E2E_CNPG:-0} == 1 ]]; then args+=(-cnpg-manager "$(hack/cluster/cnpg.sh build)"); fi
fi
# The gateway's image embeds the admin bundle (docs/admin.md).
hack/admin.sh
go build -o "$root/bin/siteplane-images" ./test/cmd/images
"$root/bin/siteplane-images" "${args[@]}"
