# Siteplane — the single entry point. `make help` lists the targets.
SHELL := /usr/bin/env bash
.SHELLFLAGS := -eu -o pipefail -c
ROOT := $(CURDIR)
BIN := $(ROOT)/bin
export GOBIN := $(BIN)
export PATH := $(BIN):$(PATH)

MODULES := ./services/... ./operator/... ./test/...
VERSION ?= dev

# Tool versions (installed into bin/ from the Go module proxy).
CONTROLLER_TOOLS_VERSION ?= v0.23.0
CONTROLLER_GEN := $(BIN)/controller-gen
GOLANGCI_LINT_VERSION ?= v2.15.0
GOLANGCI_LINT := $(BIN)/golangci-lint
# The stamp names the version, so bumping GOLANGCI_LINT_VERSION reinstalls.
GOLANGCI_LINT_STAMP := $(BIN)/.golangci-lint-$(GOLANGCI_LINT_VERSION)

.PHONY: help
help: ## Show this help.
	@awk 'BEGIN {FS = ":.*##"} /^[a-zA-Z_-]+:.*?##/ { printf "  %-16s %s\n", $$1, $$2 }' $(MAKEFILE_LIST)

##@ Everyday

.PHONY: run
run: build ## Start PostgreSQL and every service locally with demo data (Ctrl-C stops all; WP_ALIAS=1 also serves /wp-json/ and wp/v2; THEME=dir uses that block theme).
	$(BIN)/siteplane-run $(if $(WP_ALIAS),-wp-alias) $(if $(THEME),-theme $(THEME))

.PHONY: run-detached
run-detached: build ## Start the same stack in the background; `make stop` stops it (WP_ALIAS=1, THEME=dir as for run).
	$(BIN)/siteplane-run -detach $(if $(WP_ALIAS),-wp-alias) $(if $(THEME),-theme $(THEME))

.PHONY: stop
stop: ## Stop a stack started by `make run-detached`.
	@if [ -x $(BIN)/siteplane-run ]; then $(BIN)/siteplane-run -stop; else echo "nothing to stop"; fi

.PHONY: test
test: ## gofmt, vet, lint, verify generated files, and run every test of every module (real PostgreSQL, envtest).
	hack/test.sh

.PHONY: test-differential
test-differential: ## Compare Siteplane (through the wp/v2 alias) with the WordPress 6.9.7 peer request by request (as root: brings the peer up).
	hack/differential.sh

.PHONY: test-fuzz
test-fuzz: ## Fuzz the request path (route kit, gateway) in -fuzz mode, FUZZTIME per target (default 60s); not part of `make test`.
	hack/fuzz.sh

.PHONY: bench
bench: build ## Load-test the local stack and print a results table.
	hack/bench.sh

##@ Build

# The services are built static, as the images are (Dockerfile): no libc
# mapped into each process, 1.3 MiB of RSS apiece (docs/performance.md, Memory).
# The gateway embeds the admin bundle (docs/admin.md), built first.
.PHONY: build
build: admin ## Build every service binary and the local supervisor into bin/.
	CGO_ENABLED=0 go build -o $(BIN)/ ./services/cmd/...
	cd operator && go build -ldflags "-X main.version=$(VERSION)" -o $(BIN)/siteplane-operator ./cmd

.PHONY: admin
admin: ## Build the admin bundle (block editor, lists) the gateway embeds: npm ci into .cache/admin, esbuild.
	hack/admin.sh

.PHONY: fmt
fmt: ## gofmt every module.
	gofmt -w services operator test

.PHONY: vet
vet: ## go vet every module.
	go vet $(MODULES)

.PHONY: lint
lint: $(GOLANGCI_LINT_STAMP) ## golangci-lint (.golangci.yml: gofmt, vet, staticcheck, errcheck, ...) over every module.
	$(GOLANGCI_LINT) run $(MODULES)

.PHONY: lint-probe
lint-probe: $(GOLANGCI_LINT_STAMP) ## Show that each rule of the linter (layers, lengths, duplicates) can fail (about a minute).
	GOLANGCI_LINT=$(GOLANGCI_LINT) hack/lint-probe.sh

.PHONY: golangci-lint
golangci-lint: $(GOLANGCI_LINT_STAMP) ## Install the pinned golangci-lint into bin/.
$(GOLANGCI_LINT_STAMP):
	@mkdir -p $(BIN)
	go install github.com/golangci/golangci-lint/v2/cmd/golangci-lint@$(GOLANGCI_LINT_VERSION)
	@rm -f $(BIN)/.golangci-lint-*; touch $@

##@ Operator

.PHONY: controller-gen
controller-gen: $(CONTROLLER_GEN)
$(CONTROLLER_GEN):
	cd operator && go install sigs.k8s.io/controller-tools/cmd/controller-gen@$(CONTROLLER_TOOLS_VERSION)

.PHONY: manifests
manifests: $(CONTROLLER_GEN) ## Generate the CRD and RBAC into config/.
	cd operator && $(CONTROLLER_GEN) rbac:roleName=siteplane-operator crd:allowDangerousTypes=false webhook paths="./..." \
		output:crd:artifacts:config=../config/crd/bases output:rbac:artifacts:config=../config/rbac
	hack/chart-crds.sh
	@# The chart's ClusterRole rules are the generated role's rules, verbatim (a test checks it).
	mkdir -p .cache
	{ sed '/^rules:/,$$d' charts/siteplane-operator/templates/clusterrole.yaml; sed -n '/^rules:/,$$p' config/rbac/role.yaml; } > .cache/clusterrole.yaml
	mv .cache/clusterrole.yaml charts/siteplane-operator/templates/clusterrole.yaml

.PHONY: generate
generate: $(CONTROLLER_GEN) ## Generate deepcopy code and the block library data (blocktypes.json).
	cd operator && $(CONTROLLER_GEN) object:headerFile=../hack/boilerplate.go.txt paths="./..."
	hack/blocktypes.sh

.PHONY: verify
verify: manifests generate ## Fail when generated files differ from what is committed.
	@git diff --exit-code -- config operator charts services/internal/content/blocktypes || { echo "generated files are stale: run make manifests generate and commit"; exit 1; }

.PHONY: envtest
envtest: ## Provide kube-apiserver and etcd for envtest in bin/ (download, or build from the module proxy).
	hack/envtest.sh

.PHONY: test-e2e
test-e2e: ## End-to-end suite on a real cluster (E2E_PROVIDER=local|kind|existing; local: root, brought up and torn down).
	hack/e2e.sh $(E2E_ARGS)

.PHONY: cluster-up cluster-down
cluster-up: ## Start the local single-node cluster (host processes; root) with the images; prints its kubeconfig.
	hack/cluster/prereqs.sh
	E2E_IMAGES=1 hack/images.sh
	hack/cluster/up.sh $(addprefix .cache/images/,pause.tar postgres.tar versitygw.tar metrics-server.tar gateway.tar content.tar media.tar marketplace.tar operator.tar)
cluster-down: ## Stop the local cluster and remove everything it left on the host.
	hack/cluster/down.sh

.PHONY: images
images: ## Build the images as OCI archives in .cache/images/ (no daemon, no registry; REGISTRY=... also pushes).
	hack/images.sh

.PHONY: chart
chart: manifests ## Lint and package the Helm chart.
	hack/chart.sh

##@ Database

.PHONY: db-start db-stop
db-start: ## Start the throwaway PostgreSQL used by tests.
	hack/postgres.sh start test
db-stop: ## Stop it.
	hack/postgres.sh stop test

.PHONY: clean
clean: ## Remove bin/ and .cache/ (stops throwaway databases first).
	-hack/postgres.sh destroy test; -hack/postgres.sh destroy run
	rm -rf bin .cache
