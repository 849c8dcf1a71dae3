# shellcheck shell=bash
# Server CPU per request of one URL on a local stack, from /proc: sourced by
# hack/site-cpu.sh and hack/read-cpu.sh. The caller sets $concurrency,
# $duration and the pids $content, $gateway and $postmaster (PostgreSQL's
# postmaster; its backends are its children), optionally $media (then
# counted in the total too: _embed asks it for featured media), and has
# built bin/loadgen.

hz=$(getconf CLK_TCK)

ticks() { # sum of utime+stime (fields 14, 15) of the given pids and their children
  local total=0 p f
  for p in "$@"; do
    for f in /proc/"$p"/stat $(pgrep -P "$p" | sed 's#.*#/proc/&/stat#'); do
      [[ -r $f ]] || continue
      total=$((total + $(sed 's/^.*) //' "$f" | awk '{print $12 + $13}')))
    done
  done
  echo "$total"
}

# cpu_measure NAME URL [LOADGEN-ARGS...]: warms URL for 2 s, loads it for
# $duration and sets req_n, req_rps and ms_total, ms_gateway, ms_content,
# ms_postgres, ms_media (CPU ms per request). URL may start with a method ("POST url
# body"; GET otherwise); LOADGEN-ARGS (-expect NAME=..., -target-header
# NAME=...) apply to both runs.
cpu_measure() {
  local name=$1 url=$2 c0 g0 p0 m0 c1 g1 p1 m1 out row
  shift 2
  [[ $url == GET\ * || $url == POST\ * ]] || url="GET $url"
  bin/loadgen -duration 2s -concurrency "$concurrency" -target "$name=$url" "$@" >/dev/null 2>&1
  # shellcheck disable=SC2086 # $postmaster may be empty
  c0=$(ticks "$content") g0=$(ticks "$gateway") p0=$(ticks $postmaster) m0=$(ticks ${media:-})
  out=$(bin/loadgen -duration "$duration" -concurrency "$concurrency" -target "$name=$url" "$@" 2>/dev/null)
  # shellcheck disable=SC2086
  c1=$(ticks "$content") g1=$(ticks "$gateway") p1=$(ticks $postmaster) m1=$(ticks ${media:-})
  row=$(grep "^| $name " <<<"$out")
  req_n=$(awk -F'|' '{gsub(/ /,"",$5); print $5}' <<<"$row")
  req_rps=$(awk -F'|' '{gsub(/ /,"",$6); print $6}' <<<"$row")
  read -r ms_total ms_gateway ms_content ms_postgres ms_media < <(
    awk -v n="$req_n" -v hz="$hz" -v c=$((c1 - c0)) -v g=$((g1 - g0)) -v p=$((p1 - p0)) -v m=$((m1 - m0)) \
      'BEGIN { f = 1000 / hz / n; printf "%.3f %.3f %.3f %.3f %.3f\n", (c + g + p + m) * f, g * f, c * f, p * f, m * f }')
}
