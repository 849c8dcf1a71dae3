#!/usr/bin/env bash
# Build the container images: one per service plus the operator.
#   REGISTRY=ghcr.io/siteplane TAG=dev hack/images.sh
# Needs a container builder (docker, podman or buildah). The operator's
# default images are $REGISTRY/<component>:$TAG (see operator/internal/resources).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
registry=${REGISTRY:-ghcr.io/siteplane}
tag=${TAG:-dev}
builder=""
for b in docker podman buildah; do
  if command -v "$b" >/dev/null 2>&1 && { [[ $b != docker ]] || docker info >/dev/null 2>&1; }; then builder=$b; break; fi
done
if [[ -z $builder ]]; then
  echo "images.sh: no container builder here (docker with a running engine, podman or buildah)." >&2
  echo "Install one, or build the binaries with 'make build' and package them yourself." >&2
  exit 1
fi
build() {
  local name=$1 cmd=$2
  echo "==> $registry/$name:$tag ($cmd)"
  if [[ $builder == buildah ]]; then
    buildah bud --build-arg CMD="$cmd" --build-arg VERSION="$tag" -t "$registry/$name:$tag" .
  else
    "$builder" build --build-arg CMD="$cmd" --build-arg VERSION="$tag" -t "$registry/$name:$tag" .
  fi
}
for svc in gateway content media marketplace; do
  [[ -d services/cmd/$svc ]] && build "$svc" "./services/cmd/$svc"
done
build operator ./operator/cmd
