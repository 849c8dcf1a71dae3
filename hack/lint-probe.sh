#!/usr/bin/env bash
# lint-probe.sh: shows that each rule of "Rules the linter keeps"
# (docs/development.md) can fail `make lint`. It writes small throw-away
# packages named lintprobe into the tree (each breaking or keeping one rule),
# runs golangci-lint over them with the repository's .golangci.yml, prints one
# line per rule, and removes everything it wrote, whatever happens.
#
# Not part of `make test` (it costs a golangci-lint run, up to a minute on 2
# cores). Exit status 0 when every rule behaved, 1 when one did not.
#
#   hack/lint-probe.sh                          # uses bin/golangci-lint (make golangci-lint)
#   GOLANGCI_LINT=/path/to/golangci-lint hack/lint-probe.sh
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
lint=${GOLANGCI_LINT:-$root/bin/golangci-lint}
if [[ ! -x $lint ]]; then
  echo "lint-probe: no golangci-lint at $lint: run make golangci-lint (or set GOLANGCI_LINT)" >&2
  exit 2
fi

# The probe packages: directory → what it holds. A parent directory that
# does not exist yet (content/store before it is written) is created and
# removed again.
dirs=(
  services/internal/content/store/lintprobe
  services/internal/content/website/lintprobe
  services/internal/media/lintprobe
  services/internal/platform/lintprobe
  services/pkg/lintprobe
)
created=()
cleanup() {
  local d
  for ((i = ${#created[@]} - 1; i >= 0; i--)); do
    d=${created[i]}
    rm -rf -- "${d:?}"
  done
}
trap cleanup EXIT
trap "exit 130" INT TERM
for d in "${dirs[@]}"; do
  if [[ -e $d ]]; then
    echo "lint-probe: $d exists; refusing to touch it" >&2
    exit 2
  fi
done
for d in "${dirs[@]}"; do
  # Remember the highest directory this probe creates, to remove it whole.
  top=$d
  while [[ ! -e $(dirname "$top") ]]; do top=$(dirname "$top"); done
  created+=("$top")
  mkdir -p "$d"
done

# imports FILE PKG...: a file of package lintprobe that imports each PKG.
imports() {
  local f=$1
  shift
  {
    echo "package lintprobe"
    echo
    echo "import ("
    printf '\t_ "%s"\n' "$@"
    echo ")"
  } >"$f"
}

# Layers.
imports services/internal/content/store/lintprobe/layer.go \
  net/http siteplane.dev/services/internal/platform/rest \
  siteplane.dev/services/internal/content siteplane.dev/services/internal/content/website/lintprobe
imports services/internal/content/website/lintprobe/layer.go \
  siteplane.dev/services/internal/platform/rest siteplane.dev/services/internal/content \
  siteplane.dev/services/internal/content/blocks net/http
imports services/internal/media/lintprobe/layer.go siteplane.dev/services/internal/marketplace
imports services/internal/platform/lintprobe/layer.go siteplane.dev/services/internal/gateway
imports services/pkg/lintprobe/layer.go siteplane.dev/services/internal/platform/config

p=services/internal/platform/lintprobe
# Function length: 100 lines of body pass, 101 fail.
body() { # NAME LINES
  echo "func $1() int {"
  echo "	n := 0"
  for ((i = 2; i < $2; i++)); do echo "	n++"; done
  echo "	return n"
  echo "}"
}
{ echo "package lintprobe"; echo; body fits 100; echo; body tooLong 101; } >"$p/funlen.go"
# An exception on a function: with its reason it holds; without, it fails.
# (In a package of its own and of other lengths, so that dupl does not pair
# these functions with the ones above.)
{
  echo "package lintprobe"
  echo
  echo "//nolint:funlen // the probe's excused long function"
  body excusedLong 102
  echo
  echo "//nolint:funlen"
  body unexplained 103
} >services/pkg/lintprobe/nolint.go

# File length: 500 lines pass; 501 fail; 501 with the reason at the top
# pass; the exception without a reason fails.
comments() { for ((i = 0; i < $1; i++)); do echo "// line"; done; }
{ echo "package lintprobe"; comments 499; } >"$p/len500.go"
{ echo "package lintprobe"; comments 500; } >"$p/len501.go"
{ echo "//revive:disable:file-length-limit the probe's long file, with its reason"; echo "package lintprobe"; comments 499; } >"$p/excused.go"
{ echo "//revive:disable:file-length-limit"; echo "package lintprobe"; comments 499; } >"$p/noreason.go"

# Duplication: one block of logic written twice.
copied() { # NAME
  cat <<EOF
func $1(rows [][2]string) (map[string]string, error) {
	out := map[string]string{}
	for i, r := range rows {
		key, value := strings.TrimSpace(r[0]), strings.TrimSpace(r[1])
		if key == "" {
			return nil, fmt.Errorf("row %d: empty key", i)
		}
		if _, dup := out[key]; dup {
			return nil, fmt.Errorf("row %d: %s repeats", i, key)
		}
		out[key] = value
	}
	return out, nil
}
EOF
}
{ printf 'package lintprobe\n\nimport (\n\t"fmt"\n\t"strings"\n)\n\n'; copied pairsOnce; echo; copied pairsAgain; } >"$p/dupl.go"

out=$("$lint" run --enable-only depguard,funlen,revive,dupl,nolintlint --max-issues-per-linter 0 --max-same-issues 0 --uniq-by-line=false \
  "${dirs[@]/#/./}" 2>&1) || true

failed=0
# check DESCRIPTION EXPECT PATTERN: EXPECT is "found" or "absent".
check() {
  local ok=0
  if grep -qE -- "$3" <<<"$out"; then [[ $2 == found ]] && ok=1; else [[ $2 == absent ]] && ok=1; fi
  if ((ok)); then echo "ok    $1"; else echo "FAIL  $1"; failed=1; fi
}
deny() { # FILE PKG RULE
  echo "^$1:[0-9]+:[0-9]+: import '$2' is not allowed from list '$3'"
}
s=services/internal/content/store/lintprobe/layer.go
w=services/internal/content/website/lintprobe/layer.go
check "depguard: content/store importing net/http fails" found "$(deny $s net/http content-store)"
check "depguard: content/store importing platform/rest fails" found "$(deny $s siteplane.dev/services/internal/platform/rest content-store)"
check "depguard: content/store importing content (the REST handlers) fails" found "$(deny $s siteplane.dev/services/internal/content content-store)"
check "depguard: content/store importing content/website fails" found "$(deny $s siteplane.dev/services/internal/content/website/lintprobe content-store)"
check "depguard: content/website importing platform/rest fails" found "$(deny $w siteplane.dev/services/internal/platform/rest content-website)"
check "depguard: content/website importing content (the REST handlers) fails" found "$(deny $w siteplane.dev/services/internal/content content-website)"
check "depguard: content/website importing content/blocks passes (the parent's rule is exact)" absent "^$w:.*content/blocks"
check "depguard: content/website importing net/http passes" absent "^$w:.*'net/http'"
check "depguard: a service importing another (media → marketplace) fails" found "$(deny services/internal/media/lintprobe/layer.go siteplane.dev/services/internal/marketplace media)"
check "depguard: platform importing a service (gateway) fails" found "$(deny $p/layer.go siteplane.dev/services/internal/gateway platform)"
check "depguard: services/pkg importing internal fails" found "$(deny services/pkg/lintprobe/layer.go siteplane.dev/services/internal/platform/config pkg)"
check "funlen: a 101-line function fails" found "^$p/funlen.go:[0-9]+:[0-9]+: Function 'tooLong' is too long \(101 > 100\)"
check "funlen: a 100-line function passes" absent "Function 'fits'"
check "nolint: a 102-line function with //nolint:funlen and its reason passes" absent "Function 'excusedLong'"
check "nolint: //nolint:funlen without a reason fails" found "^services/pkg/lintprobe/nolint.go:[0-9]+:[0-9]+: directive .//nolint:funlen. should provide explanation"
check "file-length-limit: a 501-line file fails" found "^$p/len501.go:501: file-length-limit"
check "file-length-limit: a 500-line file passes" absent "^$p/len500.go"
check "file-length-limit: 501 lines with the reason at the top pass" absent "^$p/excused.go"
check "file-length-limit: the exception without a reason fails" found "^$p/noreason.go:1:1: specify-disable-reason"
check "dupl: a copied 12-line block of logic fails" found "^$p/dupl.go:[0-9]+: [0-9]+-[0-9]+ lines are duplicate of"
if ((failed)); then
  echo "lint-probe: golangci-lint said:" >&2
  echo "$out" >&2
  exit 1
fi
