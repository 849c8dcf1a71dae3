#!/usr/bin/env bash
# `make chart`: lint the operator chart strictly and package it into bin/charts/.
# helm is the pinned one hack/helm.sh builds into bin/ from the Go module proxy.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
helm=$(hack/helm.sh)
"$helm" lint --strict charts/siteplane-operator
"$helm" template siteplane charts/siteplane-operator --namespace siteplane-system >/dev/null
mkdir -p bin/charts
"$helm" package charts/siteplane-operator --destination bin/charts
