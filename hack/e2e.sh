#!/usr/bin/env bash
# `make test-e2e`: the end-to-end suite against a real cluster. It needs a
# cluster reachable through KUBECONFIG whose nodes can pull the images built by
# `make images` (REGISTRY/TAG), and helm. Nothing here creates a cluster: this
# machine has no container engine, so the suite runs where one exists.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
if ! kubectl version --request-timeout=5s >/dev/null 2>&1; then
  echo "e2e.sh: no reachable cluster (set KUBECONFIG). The e2e suite needs a real cluster with the images of 'make images'." >&2
  exit 1
fi
if [[ ! -d test/e2e ]]; then
  echo "e2e.sh: the e2e suite (test/e2e) is not written yet." >&2
  exit 1
fi
go test -count=1 -tags e2e ./test/e2e/... "$@"
