# shellcheck shell=bash
# The processes of a local stack for loadgen's -cpu and -mem: sourced by
# hack/bench.sh and hack/bench-scale.sh. The caller sets $root (the
# repository) and $stack (the stack's name, bin/siteplane-run -name).

# pid_of NAME: the stack's process of bin/NAME (a child of the stack's
# siteplane-run, so that another stack running the same binaries is never
# measured instead)
pid_of() {
  local parent
  parent=$(cat ".cache/$stack/pid" 2>/dev/null || true)
  if [[ -n $parent ]]; then
    pgrep -P "$parent" -f "^$root/bin/$1\$" | head -1 || true
  else
    pgrep -f "^$root/bin/$1\$" | head -1 || true
  fi
}

# cpu_sets adds to the arrays cpu and mem the four services (CPU and peak
# RSS) and PostgreSQL with its backends (CPU).
cpu_sets() {
  local n p
  for n in gateway content media marketplace; do
    p=$(pid_of "$n")
    [[ -n $p ]] && cpu+=(-cpu "$n=pid:$p") && mem+=(-mem "$n=pid:$p")
  done
  p=$(head -1 ".cache/postgres/$stack/data/postmaster.pid" 2>/dev/null || true)
  [[ -n $p ]] && cpu+=(-cpu "postgres=tree:$p")
}
