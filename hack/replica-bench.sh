#!/usr/bin/env bash
# Issue 34's Speed figures on loopback, with real processes over one
# PostgreSQL (docs/operator.md#replicas-speed-and-what-limits-a-site-at-10-and-100-nodes):
#
# 1. hit: the edge cache's hit ratio of a 1,000-URL anonymous read mix (500
#    REST posts/ID and 500 post pages of a 500-post site), Zipf-distributed
#    requests (test/cmd/hitmix), over 1 gateway and over 3 (each its own
#    in-memory cache), spread round robin as a Service does, and over 3
#    routed by a hash of the URL as an ingress could.
# 2. cpu: server CPU per request (utime+stime of the gateways, the content
#    services and PostgreSQL, from /proc) of an uncached read
#    (posts?per_page=10, edge cache off) and of a create (POST posts), with 1
#    gateway + 1 content, then with 3 + 3 (gateway i asks content i; the load
#    is split over the 3 gateways by connection, as kube-proxy does), and
#    the context switches of the gateways and contents per request. The
#    two alternate on one stack ($REPLICA_BENCH_ROUNDS rounds; the idle
#    replicas are stopped with SIGSTOP meanwhile).
# 3. idle: what one replica costs that only hears the change notifications:
#    creates go through gateway 1 for $REPLICA_BENCH_DURATION while gateway 2
#    and content 2 serve nothing; their CPU per create heard (and
#    PostgreSQL's, whose backends deliver the NOTIFY to every listener).
#    REPLICA_BENCH_PROFILE=DIR also writes DIR/gateway-2.pprof and
#    DIR/content-2.pprof, CPU profiles of the two idle replicas meanwhile.
#    Beside them, the floor: test/cmd/listenfloor, a process that only
#    LISTENs with pgx (its wait's context Background, and renewed per probe
#    period as the services' listener does). REPLICA_BENCH_IDLE_ENV="K=V ..."
#    is added to the idle replicas' environment (e.g. GOMAXPROCS=1).
#
#   hack/replica-bench.sh               # hit and cpu: about 40 s, then 90 s
#   REPLICA_BENCH=idle REPLICA_BENCH_DURATION=20s hack/replica-bench.sh
#   REPLICA_BENCH=hit hack/replica-bench.sh
#   REPLICA_BENCH=cpu REPLICA_BENCH_DURATION=10s REPLICA_BENCH_CONCURRENCY=12 hack/replica-bench.sh
#   REPLICA_BENCH=cpu REPLICA_BENCH_PER_REPLICA=1 REPLICA_BENCH_CONCURRENCY=4 hack/replica-bench.sh
#       $concurrency connections on each gateway (3 times the load on 3
#       replicas, the same load per replica) instead of in all
#   REPLICA_BENCH_REQUESTS="1000 5000 20000" REPLICA_BENCH_ZIPF=1.1 hack/replica-bench.sh
#
# Every committed write drops every gateway's whole cache, so a run of N
# requests from cold caches is the mix between two writes N reads apart.
#
# The extra replicas are copies of the stack's gateway and content processes
# (their environment, other listen addresses), started here and stopped on
# exit with the stack (bin/siteplane-run -name replica-bench).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
what=${REPLICA_BENCH:-hit cpu}
pprof_c='' pprof_g='' # SITEPLANE_PPROF_ADDR of the next pair start_pair starts (idle phase)
pair_env=() # more environment of the next pair start_pair starts (idle phase)
duration=${REPLICA_BENCH_DURATION:-6s}
rounds=${REPLICA_BENCH_ROUNDS:-2} # 1 and 3 replicas alternate, this many times
concurrency=${REPLICA_BENCH_CONCURRENCY:-12} # split 4+4+4 over 3 gateways
requests=${REPLICA_BENCH_REQUESTS:-1000 5000 20000} # one set of runs each: the reads between two writes
zipf=${REPLICA_BENCH_ZIPF:-1.1}
stack=replica-bench
out=.cache/$stack-out
mkdir -p "$out"
go build -o bin/loadgen ./test/cmd/loadgen
go build -o bin/hitmix ./test/cmd/hitmix
go build -o bin/listenfloor ./test/cmd/listenfloor
# shellcheck source=hack/lib/cpu.sh
. hack/lib/cpu.sh

extra=() # pids of the replicas started here
# shellcheck disable=SC2317 # called by the EXIT trap and between phases
stop_all() {
  local p
  for p in "${extra[@]}"; do kill -CONT "$p" 2>/dev/null || true; kill "$p" 2>/dev/null || true; done
  for p in "${extra[@]}"; do while kill -0 "$p" 2>/dev/null; do sleep 0.1; done; done
  extra=()
  bin/siteplane-run -name "$stack" -stop >/dev/null 2>&1 || true
}
trap stop_all EXIT

# switches PID...: the context switches (voluntary and not) of every thread
# of the given processes: a request that wakes a sleeping process costs some.
switches() {
  local t=0 p
  for p in "$@"; do
    t=$((t + $(cat /proc/"$p"/task/*/status 2>/dev/null | awk '/ctxt_switches/ { s += $2 } END { print s + 0 }')))
  done
  echo "$t"
}

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# start_stack [ENV=VALUE...]: a fresh stack of 500 posts; sets the pids
# g1, c1, pm (postmaster) and sources its env file.
start_stack() {
  bin/siteplane-run -name "$stack" -stop >/dev/null 2>&1 || true
  hack/postgres.sh destroy "$stack" >/dev/null 2>&1 || true
  env "$@" bin/siteplane-run -name "$stack" -detach -port 0 >"$out/run.txt" 2>&1 || { tail -n 20 "$out/run.txt" >&2; exit 1; }
  # shellcheck disable=SC1090
  . ".cache/$stack/env"
  hack/bench-content.sh siteplane 500 "$SITEPLANE_DATABASE_URL" >/dev/null
  g1=$(pgrep -f "^$root/bin/gateway\$" | head -1)
  c1=$(pgrep -f "^$root/bin/content\$" | head -1)
  pm=$(pgrep -f "postgres -D $root/.cache/postgres/$stack/" | head -1)
  gateways=("$GATEWAY_URL") gpids=("$g1") cpids=("$c1")
}

# start_pair N: gateway N and content N, copies of the stack's first ones
# with their own listeners; gateway N routes to content N, content N calls
# back gateway N's internal listener.
start_pair() {
  local n=$1 gport iport cport genv cenv
  gport=$(free_port) iport=$(free_port) cport=$(free_port)
  mapfile -t genv < <(tr '\0' '\n' <"/proc/$g1/environ")
  mapfile -t cenv < <(tr '\0' '\n' <"/proc/$c1/environ")
  sed "s#$CONTENT_URL#http://127.0.0.1:$cport#" ".cache/$stack/routes.json" >"$out/routes-$n.json"
  env -i "${cenv[@]}" SITEPLANE_LISTEN_ADDR="127.0.0.1:$cport" SITEPLANE_METRICS_ADDR=127.0.0.1:0 \
    SITEPLANE_GATEWAY_URL="http://127.0.0.1:$iport" SITEPLANE_PPROF_ADDR="$pprof_c" "${pair_env[@]}" bin/content >"$out/content-$n.log" 2>&1 &
  extra+=($!) cpids+=($!)
  env -i "${genv[@]}" SITEPLANE_LISTEN_ADDR="127.0.0.1:$gport" SITEPLANE_METRICS_ADDR=127.0.0.1:0 \
    SITEPLANE_INTERNAL_LISTEN_ADDR="127.0.0.1:$iport" SITEPLANE_ROUTES_FILE="$root/$out/routes-$n.json" \
    SITEPLANE_PPROF_ADDR="$pprof_g" "${pair_env[@]}" bin/gateway >"$out/gateway-$n.log" 2>&1 &
  extra+=($!) gpids+=($!)
  gateways+=("http://127.0.0.1:$gport")
  for _ in $(seq 100); do
    curl -fsS -o /dev/null "http://127.0.0.1:$gport/readyz" 2>/dev/null &&
      curl -fsS -o /dev/null "http://127.0.0.1:$cport/readyz" 2>/dev/null && return
    sleep 0.2
  done
  echo "replica $n not ready (logs in $out)" >&2
  exit 1
}

auth="Authorization: Basic $(printf '%s:%s' admin x | base64 -w0)" # set again once the stack runs
drop_caches() { # one committed write: every gateway's edge cache is dropped (NOTIFY)
  curl -fsS -o /dev/null -H "$auth" -H 'Content-Type: application/json' -d '{"title":"drop the caches"}' "$REST_ROOT/cms/v2/posts"
  sleep 1
}

hit_phase() {
  start_stack
  auth="Authorization: Basic $(printf '%s:%s' "$ADMIN_USER" "$ADMIN_APP_PASSWORD" | base64 -w0)"
  for p in 1 2 3 4 5; do
    curl -fsS "$REST_ROOT/cms/v2/posts?per_page=100&page=$p&_fields=id,link"
    echo
  done | python3 -c '
import json, sys
from urllib.parse import urlparse
for line in sys.stdin:
    for p in json.loads(line):
        print("/cms-json/cms/v2/posts/%d" % p["id"])
        print(urlparse(p["link"]).path)' >"$out/urls.txt"
  start_pair 2
  start_pair 3
  echo "hit ratio: Zipf s=$zipf over $(wc -l <"$out/urls.txt") URLs, 4 requests at a time, each run from cold caches"
  printf '| run | gateways | requests | distinct URLs | hits | misses | hit ratio | best possible | busiest gateway | failed | took |\n'
  printf '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n'
  local all n
  all=$(IFS=,; echo "${gateways[*]}")
  for n in $requests; do
    drop_caches
    bin/hitmix -label "1 gateway" -urls "$out/urls.txt" -gateways "${gateways[0]}" -requests "$n" -zipf "$zipf"
    drop_caches
    bin/hitmix -label "3 gateways, round robin" -urls "$out/urls.txt" -gateways "$all" -requests "$n" -zipf "$zipf"
    drop_caches
    bin/hitmix -label "3 gateways, by URL hash" -urls "$out/urls.txt" -gateways "$all" -requests "$n" -zipf "$zipf" -route hash
  done
  echo "(load average: $(cut -d' ' -f1-3 /proc/loadavg))"
  stop_all
}

# measure NAME REQUEST [LOADGEN-ARGS]: warm 2 s, then load REQUEST's path
# (its URL on the first gateway) on every gateway in ${gateways[@]} at once,
# $concurrency connections in all; prints a row of CPU ms per request.
measure() {
  local name=$1 req=$2 n=${#gateways[@]} i t0 t1 total=0 g c p s pids=()
  shift 2
  local per=$((concurrency / n)) method=${req%% *} rest=${req#* }
  [[ -z ${REPLICA_BENCH_PER_REPLICA:-} ]] || per=$concurrency
  for g in "${gateways[@]}"; do
    bin/loadgen -duration 2s -concurrency "$per" -target "$name=$method ${rest/$GATEWAY_URL/$g}" "$@" >/dev/null 2>&1 &
    pids+=($!)
  done
  wait "${pids[@]}"
  pids=()
  # shellcheck disable=SC2086
  t0=$(ticks "${gpids[@]}" "${cpids[@]}" $pm) g=$(ticks "${gpids[@]}") c=$(ticks "${cpids[@]}") p=$(ticks $pm)
  s=$(switches "${gpids[@]}" "${cpids[@]}")
  for i in "${!gateways[@]}"; do
    bin/loadgen -duration "$duration" -concurrency "$per" -target "$name=$method ${rest/$GATEWAY_URL/${gateways[$i]}}" "$@" \
      >"$out/load-$name-$n-$i.txt" 2>/dev/null &
    pids+=($!)
  done
  wait "${pids[@]}"
  # shellcheck disable=SC2086
  t1=$(ticks "${gpids[@]}" "${cpids[@]}" $pm)
  g=$(($(ticks "${gpids[@]}") - g)) c=$(($(ticks "${cpids[@]}") - c)) p=$(($(ticks $pm) - p))
  s=$(($(switches "${gpids[@]}" "${cpids[@]}") - s))
  for i in "${!gateways[@]}"; do
    total=$((total + $(grep "^| $name " "$out/load-$name-$n-$i.txt" | awk -F'|' '{gsub(/ /,"",$5); print $5}')))
  done
  awk -v name="$name" -v n="$n" -v r="$total" -v hz="$hz" -v t=$((t1 - t0)) -v g="$g" -v c="$c" -v p="$p" -v s="$s" -v d="${duration%s}" \
    'BEGIN { f = 1000 / hz / r; printf "| %s | %d + %d | %d | %.0f | %.3f | %.3f | %.3f | %.3f | %.1f |\n", name, n, n, r, r / d, t * f, g * f, c * f, p * f, s / r }'
}

# use N: measure over the first N gateway/content pairs; the others are
# stopped (SIGSTOP), as if they did not run, so that 1 and 3 replicas
# alternate on one stack and a burst of the machine's other load hits both.
use() {
  local i sig
  gateways=("${all_g[@]:0:$1}") gpids=("${all_gp[@]:0:$1}") cpids=("${all_cp[@]:0:$1}")
  for i in 1 2; do
    sig=CONT
    ((i < $1)) || sig=STOP
    kill -"$sig" "${all_gp[$i]}" "${all_cp[$i]}"
  done
  sleep 0.5
}

cpu_phase() {
  start_stack SITEPLANE_EDGE_CACHE_BYTES=0
  auth="Authorization: Basic $(printf '%s:%s' "$ADMIN_USER" "$ADMIN_APP_PASSWORD" | base64 -w0)"
  local read="GET $REST_ROOT/cms/v2/posts?per_page=10" round n
  local create="POST $REST_ROOT/cms/v2/posts {\"title\":\"replica-bench {{seq}}\",\"content\":\"<p>x</p>\",\"status\":\"publish\"}"
  start_pair 2
  start_pair 3
  all_g=("${gateways[@]}") all_gp=("${gpids[@]}") all_cp=("${cpids[@]}")
  local spread="in all"
  [[ -z ${REPLICA_BENCH_PER_REPLICA:-} ]] || spread="per gateway"
  echo "CPU per request: $duration per run, $concurrency connections $spread, edge cache off, $rounds rounds"
  printf '| request | gateways + contents | requests | req/s | CPU ms/request | gateways | contents | postgres | context switches/request |\n'
  printf '|---|---|---:|---:|---:|---:|---:|---:|---:|\n'
  for round in $(seq "$rounds"); do
    for n in 1 3; do
      use "$n"
      measure read "$read"
      measure create "$create" -target-header "create=$auth"
    done
  done
  use 3
  echo "(load average: $(cut -d' ' -f1-3 /proc/loadavg))"
  stop_all
}

# idle_phase: gateway 2 and content 2 only hear the notifications of the
# creates made through gateway 1; their CPU per create.
idle_phase() {
  start_stack SITEPLANE_EDGE_CACHE_BYTES=0
  auth="Authorization: Basic $(printf '%s:%s' "$ADMIN_USER" "$ADMIN_APP_PASSWORD" | base64 -w0)"
  local create="POST $REST_ROOT/cms/v2/posts {\"title\":\"replica-bench {{seq}}\",\"content\":\"<p>x</p>\",\"status\":\"publish\"}"
  local prof=${REPLICA_BENCH_PROFILE:-} g2 c2 t0g t0c t0p n secs pids=()
  if [[ -n $prof ]]; then
    mkdir -p "$prof"
    pprof_g=127.0.0.1:$(free_port) pprof_c=127.0.0.1:$(free_port)
  fi
  read -ra pair_env <<<"${REPLICA_BENCH_IDLE_ENV:-}"
  start_pair 2
  pair_env=()
  g2=${gpids[1]} c2=${cpids[1]}
  bin/loadgen -duration 2s -concurrency "$concurrency" -target "create=$create" -target-header "create=$auth" >/dev/null 2>&1
  t0g=$(ticks "$g2") t0c=$(ticks "$c2") t0p=$(ticks "$pm")
  secs=${duration%s}
  if [[ -n $prof ]]; then
    curl -fsS -o "$prof/gateway-2.pprof" "http://$pprof_g/debug/pprof/profile?seconds=$secs" &
    pids+=($!)
    curl -fsS -o "$prof/content-2.pprof" "http://$pprof_c/debug/pprof/profile?seconds=$secs" &
    pids+=($!)
  fi
  local m floors=()
  for m in background timeout; do
    bin/listenfloor -dsn "$SITEPLANE_DATABASE_URL" -mode "$m" -duration "$duration" >"$out/floor-$m.txt" 2>&1 &
    floors+=($!)
  done
  bin/loadgen -duration "$duration" -concurrency "$concurrency" -target "create=$create" -target-header "create=$auth" \
    >"$out/load-idle.txt" 2>/dev/null
  t0g=$(($(ticks "$g2") - t0g)) t0c=$(($(ticks "$c2") - t0c)) t0p=$(($(ticks "$pm") - t0p))
  ((${#pids[@]} == 0)) || wait "${pids[@]}"
  wait "${floors[@]}"
  n=$(grep "^| create " "$out/load-idle.txt" | awk -F'|' '{gsub(/ /,"",$5); print $5}')
  echo "Idle replicas: $n creates through gateway 1 in $duration, $concurrency connections; CPU of the replicas that only hear them"
  printf '| creates | idle gateway, µs per create | idle content, µs per create | postgres (all), ms per create |\n|---:|---:|---:|---:|\n'
  awk -v n="$n" -v g="$t0g" -v c="$t0c" -v p="$t0p" -v hz="$hz" \
    'BEGIN { printf "| %d | %.1f | %.1f | %.3f |\n", n, g*1e6/hz/n, c*1e6/hz/n, p*1e3/hz/n }'
  for m in background timeout; do echo "floor, wait context $m: $(cat "$out/floor-$m.txt")"; done
  echo "(load average: $(cut -d' ' -f1-3 /proc/loadavg))"
  stop_all
}

for w in $what; do
  case $w in
  hit) hit_phase ;;
  cpu) cpu_phase ;;
  idle) idle_phase ;;
  *) echo "unknown: $w (hit, cpu or idle)" >&2; exit 2 ;;
  esac
done
