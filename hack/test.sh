#!/usr/bin/env bash
# `make test`: every check and every test of every module, against a throwaway
# PostgreSQL (one fresh database per test package, see platform/pgtest) and a
# real kube-apiserver + etcd for the operator's envtest suite, and a real
# S3-compatible server (versitygw) for the media S3 backend.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
export GOBIN="$root/bin" PATH="$root/bin:$PATH"

# step names the next step and says how long the previous one took, so a slow
# CI run shows where its time went.
began=$SECONDS last=$SECONDS name=""
step() {
  [[ -n $name ]] && printf '<== %s: %ds\n' "$name" $((SECONDS - last))
  name=$* last=$SECONDS
  printf '\n==> %s\n' "$*"
}

step "gofmt"
out=$(gofmt -l services operator test)
if [[ -n $out ]]; then echo "gofmt would change:"; echo "$out"; exit 1; fi

step "go vet"
go vet ./services/... ./operator/... ./test/...
go vet -tags e2e ./test/e2e/

step "golangci-lint (make lint; .golangci.yml says what it checks)"
make --no-print-directory lint

if [[ -d operator/api ]]; then
  step "verify generated files (CRD, RBAC, deepcopy)"
  make --no-print-directory verify
fi

if [[ -x hack/envtest.sh ]]; then
  step "envtest binaries"
  KUBEBUILDER_ASSETS=$(hack/envtest.sh)
  export KUBEBUILDER_ASSETS
fi

step "helm (the chart tests render and lint the chart with it)"
SITEPLANE_HELM=$(hack/helm.sh)
export SITEPLANE_HELM

step "versitygw (S3-compatible server for the media S3 backend's tests)"
SITEPLANE_TEST_VERSITYGW=$(hack/versitygw.sh)
export SITEPLANE_TEST_VERSITYGW

step "Twenty Twenty-Three for the theme tests"
if SITEPLANE_TT3_DIR=$(hack/tt3.sh); then
  export SITEPLANE_TT3_DIR
  echo "$SITEPLANE_TT3_DIR"
elif [[ ${CI:-} == true ]]; then
  echo "hack/tt3.sh could not provide Twenty Twenty-Three (required under CI=true)" >&2
  exit 1
else
  echo "no Twenty Twenty-Three: its tests will skip" >&2
fi

step "Chromium for the browser tests"
if SITEPLANE_CHROMIUM=$(hack/chromium.sh); then
  export SITEPLANE_CHROMIUM
  echo "$SITEPLANE_CHROMIUM"
elif [[ ${CI:-} == true ]]; then
  echo "hack/chromium.sh could not provide Chromium (required under CI=true)" >&2
  exit 1
else
  echo "no Chromium: the browser tests will skip" >&2
fi

step "xmllint and the sitemap schema (feed and sitemap validation, hack/xmlschemas.sh)"
if SITEPLANE_XML_SCHEMAS=$(hack/xmlschemas.sh); then
  export SITEPLANE_XML_SCHEMAS
  echo "$SITEPLANE_XML_SCHEMAS"
elif [[ ${CI:-} == true ]]; then
  echo "hack/xmlschemas.sh could not provide xmllint and the schemas (required under CI=true)" >&2
  exit 1
else
  echo "no xmllint or schemas: the feed and sitemap schema checks will skip" >&2
fi

step "page validators: the Nu HTML Checker and axe-core (hack/validators.sh)"
if SITEPLANE_VALIDATORS=$(hack/validators.sh); then
  export SITEPLANE_VALIDATORS
  echo "$SITEPLANE_VALIDATORS"
elif [[ ${CI:-} == true ]]; then
  echo "hack/validators.sh could not provide Java, vnu-jar and axe-core (required under CI=true)" >&2
  exit 1
else
  echo "no page validators: the website's validator tests will skip" >&2
fi

step "throwaway PostgreSQL"
started=0
if [[ -z ${DATABASE_URL:-} ]] && ! hack/postgres.sh status test; then started=1; fi
SITEPLANE_TEST_DATABASE_URL=$(hack/postgres.sh start test)
export SITEPLANE_TEST_DATABASE_URL
[[ $started == 1 ]] && trap 'hack/postgres.sh stop test' EXIT

step "npm clients the stack tests drive (wpapi)"
SITEPLANE_NPM_MODULES=$(hack/npm-clients.sh)
export SITEPLANE_NPM_MODULES

step "admin bundle (hack/admin.sh: the gateway embeds it; the editor's browser test drives it)"
if ! hack/admin.sh; then
  if [[ ${CI:-} == true ]]; then
    echo "hack/admin.sh could not build the admin bundle (required under CI=true)" >&2
    exit 1
  fi
  echo "no admin bundle: the editor's browser tests will skip" >&2
fi

step "go test"
go test -count=1 ${GOTESTFLAGS:-} ./services/... ./operator/... ./test/...
printf '<== %s: %ds\nmake test: %ds in all\n' "$name" $((SECONDS - last)) $((SECONDS - began))
