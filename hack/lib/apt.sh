# Sourced by the scripts that install Debian packages. Several of them may run
# at once on one machine (make test's Chromium and xmllint steps beside a
# cluster's prerequisites, or two checkouts): apt-get then refuses at once
# with "Could not get lock", so wait for the other one instead.
apt_get() {
  apt-get -o DPkg::Lock::Timeout=600 "$@"
}
