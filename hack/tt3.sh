#!/usr/bin/env bash
# Twenty Twenty-Three, the WordPress block theme the theme tests load and
# render (docs/website.md#themes).
#
#   hack/tt3.sh     print the theme's directory: $SITEPLANE_TT3_DIR, else the
#                   WordPress peer's copy (the version the peer renders, so
#                   both sides of the comparison use the same files), else
#                   Debian's wordpress-theme-twentytwentythree, installed
#                   first when missing and we are root with apt-get (as CI is)
#
# Exits non-zero (with a hint on stderr) when none is available; the tests
# that need it then skip, or fail under CI=true.
set -euo pipefail
. "$(dirname "$0")/lib/apt.sh"

debian=/usr/share/wordpress/wp-content/themes/twentytwentythree
candidates=("${SITEPLANE_TT3_DIR:-}" /var/lib/wp-peer/current/wp-content/themes/twentytwentythree "$debian")

find_dir() {
  local d
  for d in "${candidates[@]}"; do
    [[ -n $d && -f $d/theme.json && -f $d/style.css ]] && { echo "$d"; return 0; }
  done
  return 1
}

if find_dir; then exit 0; fi

echo "hack/tt3.sh: installing Debian's wordpress-theme-twentytwentythree package" >&2
if apt_install wordpress-theme-twentytwentythree; then
  find_dir && exit 0
fi

echo "hack/tt3.sh: no Twenty Twenty-Three found; set SITEPLANE_TT3_DIR or apt-get install wordpress-theme-twentytwentythree" >&2
exit 1
