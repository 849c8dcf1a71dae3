# Sourced by the scripts that install Debian packages. Several of them may run
# at once on one machine (make test's Chromium and xmllint steps beside a
# cluster's prerequisites, or two checkouts): apt-get then refuses at once
# with "Could not get lock", so wait for the other one instead.
apt_get() {
  apt-get -o DPkg::Lock::Timeout=600 "$@"
}

# apt_install installs Debian packages when we are root with apt-get (as CI
# is), updating the package lists once if the first try fails; it returns
# non-zero when it cannot.
apt_install() {
  [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1 || return 1
  export DEBIAN_FRONTEND=noninteractive
  apt_get install -y --no-install-recommends "$@" >&2 && return 0
  apt_get update >&2 && apt_get install -y --no-install-recommends "$@" >&2
}
