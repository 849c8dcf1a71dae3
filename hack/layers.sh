#!/usr/bin/env bash
# Which siteplane packages content's layers import (issue 25): the REST
# handlers (content), the website (content/website) and the store
# (content/store), each with what it imports directly and, below, every
# siteplane package it depends on through others. The rules the lint keeps
# (.golangci.yml, depguard): the store imports no HTTP, no route kit
# (platform/rest) and neither front end; the website imports no route kit
# and not the REST handlers.
#
#   hack/layers.sh            the three layers
#   hack/layers.sh PKG...     other packages (import paths below services/)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root/services"

mod=siteplane.dev/services
pkgs=("$@")
((${#pkgs[@]})) || pkgs=(internal/content internal/content/website internal/content/store)

for p in "${pkgs[@]}"; do
  path=$mod/${p#"$mod"/}
  echo "== $path"
  echo "imports:"
  go list -f '{{range .Imports}}{{println .}}{{end}}' "$path" |
    grep -E "^($mod/|net/http$)" | sed 's/^/  /'
  echo "depends on (siteplane, all levels):"
  go list -deps -f '{{.ImportPath}}' "$path" |
    grep "^$mod/" | grep -vx "$path" | sort | sed "s/^/  /"
  echo
done
