#!/usr/bin/env bash
# `make chart`: lint the operator chart strictly and package it into bin/charts/.
# helm comes from PATH, or is built once into bin/ from the Go module proxy.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
HELM_VERSION=${HELM_VERSION:-v3.22.0}
helm=$(command -v helm || true)
if [[ -z $helm ]]; then
  helm=$root/bin/helm
  if [[ ! -x $helm ]]; then
    echo "chart.sh: building helm $HELM_VERSION into bin/ (once; a few minutes)" >&2
    GOBIN=$root/bin GOWORK=off go install "helm.sh/helm/v3/cmd/helm@$HELM_VERSION"
  fi
fi
"$helm" lint --strict charts/siteplane-operator
"$helm" template siteplane charts/siteplane-operator --namespace siteplane-system >/dev/null
mkdir -p bin/charts
"$helm" package charts/siteplane-operator --destination bin/charts
