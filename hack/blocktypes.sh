#!/usr/bin/env bash
# Regenerates services/internal/content/blocktypes/blocktypes.json (the block
# types, core patterns and pattern categories the cms/v2 routes answer) from
# WordPress's release tarball, as `make generate` does for the operator's
# code. The tarball is $SITEPLANE_WP_TARBALL, else the peer's copy beside the
# repository (../shared/peers/wordpress/core/). Without it nothing is
# regenerated (under CI=true that is an error); the generator's own test
# compares the file the same way.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tarball=${SITEPLANE_WP_TARBALL:-$root/../shared/peers/wordpress/core/wordpress-6.9.7.tar.gz}
if [[ ! -f $tarball ]]; then
  if [[ ${CI:-} == true ]]; then
    echo "hack/blocktypes.sh: no WordPress tarball at $tarball (set SITEPLANE_WP_TARBALL)" >&2
    exit 1
  fi
  echo "hack/blocktypes.sh: no WordPress tarball at $tarball; blocktypes.json not regenerated (set SITEPLANE_WP_TARBALL)" >&2
  exit 0
fi
cd "$root/services/internal/content/blocktypes"
SITEPLANE_WP_TARBALL=$tarball go generate .
