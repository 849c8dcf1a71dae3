#!/usr/bin/env bash
# Throwaway PostgreSQL for tests and `make run`.
#
#   hack/postgres.sh start [NAME]   start (or reuse) the instance NAME (default "test")
#   hack/postgres.sh stop [NAME]    stop it; its data stays under .cache/postgres/NAME
#   hack/postgres.sh status [NAME]  exit 0 when running
#   hack/postgres.sh url [NAME]     print the superuser DSN
#   hack/postgres.sh destroy [NAME] stop it and delete its data
#   hack/postgres.sh replica [NAME] start (or reuse) NAME-replica, a hot standby streaming from
#                                   the running instance NAME (pg_basebackup -R); prints its DSN.
#                                   stop/url/destroy take NAME-replica like any instance. Tests pause
#                                   its replay (pg_wal_replay_pause) to play a replica that lags.
#
# The server listens on 127.0.0.1 at a free port, trusts local connections and
# keeps its data under .cache/postgres/NAME. When DATABASE_URL is set, no server
# is started: `start` and `url` print DATABASE_URL and the other verbs do nothing.
# Server binaries come from PATH or /usr/lib/postgresql/*/bin; when none exist
# and we are root with apt-get, Debian's postgresql package is installed.
set -euo pipefail
. "$(dirname "$0")/lib/apt.sh"

root=$(cd "$(dirname "$0")/.." && pwd)
verb=${1:-status}
name=${2:-test}
dir="$root/.cache/postgres/$name"
data="$dir/data"

if [[ -n "${DATABASE_URL:-}" ]]; then
  [[ $verb == url || $verb == start ]] && echo "$DATABASE_URL"
  exit 0
fi

find_bin() {
  if command -v pg_ctl >/dev/null 2>&1 && command -v initdb >/dev/null 2>&1; then
    dirname "$(command -v pg_ctl)"; return 0
  fi
  local d
  for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    [[ -x $d/pg_ctl && -x $d/initdb ]] && { echo "$d"; return 0; }
  done
  return 1
}

install_server() {
  if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
    echo "postgres.sh: no PostgreSQL server binaries found; installing Debian's postgresql" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt_get update -qq >&2
    apt_get install -y -qq --no-install-recommends postgresql >&2
    # Debian's package starts a cluster of its own; we do not need it.
    (command -v pg_ctlcluster >/dev/null && pg_lsclusters -h 2>/dev/null | while read -r v c _; do pg_ctlcluster "$v" "$c" stop || true; done) >&2 || true
  else
    echo "postgres.sh: PostgreSQL server binaries (initdb, pg_ctl) not found." >&2
    echo "Install them (Debian/Ubuntu: apt-get install postgresql; macOS: brew install postgresql@15)" >&2
    echo "or set DATABASE_URL to an existing server's superuser DSN." >&2
    exit 1
  fi
}

bin=$(find_bin) || { install_server; bin=$(find_bin); }

# initdb and postgres refuse to run as root: run them as an unprivileged user.
as_owner() {
  if [[ $(id -u) -eq 0 ]]; then
    local u=${PG_RUN_USER:-postgres}
    id "$u" >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin "$u"
    chown -R "$u" "$dir"
    # The run user must be able to reach the data directory through every parent.
    local p=$dir
    while [[ $p != / ]]; do chmod o+x "$p" 2>/dev/null || true; p=$(dirname "$p"); done
    runuser -u "$u" -- "$@"
  else
    "$@"
  fi
}

free_port() {
  python3 - <<'PY' 2>/dev/null || echo $((20000 + RANDOM % 20000))
import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()
PY
}

port_free() {
  python3 - "$1" <<'PY' 2>/dev/null
import socket, sys
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as PostgreSQL binds
try:
    s.bind(("127.0.0.1", int(sys.argv[1])))
except OSError:
    sys.exit(1)
PY
}

running() { [[ -f $data/postmaster.pid ]] && as_owner "$bin/pg_ctl" -D "$data" status >/dev/null 2>&1; }
port() { cat "$dir/port"; }
dsn() { echo "postgres://postgres@127.0.0.1:$(port)/postgres?sslmode=disable"; }

# start_server starts the instance in $data on a free port (the one it had
# when still free); $1 is extra server options.
start_server() {
  if [[ -f $dir/port ]] && port_free "$(cat "$dir/port")"; then p=$(cat "$dir/port"); else p=$(free_port); fi
  echo "$p" >"$dir/port"
  as_owner "$bin/pg_ctl" -D "$data" -l "$dir/server.log" -w -t 60 start -o \
    "-h 127.0.0.1 -p $p -k $dir -c max_connections=400 $1 -c shared_buffers=256MB" >/dev/null \
    || { tail -20 "$dir/server.log" >&2; exit 1; }
}

case $verb in
  replica)
    primary_dir=$dir
    [[ -f $primary_dir/port ]] && PGPORT=$(cat "$primary_dir/port") || { echo "postgres.sh: instance $name is not running" >&2; exit 1; }
    name="$name-replica"
    dir="$root/.cache/postgres/$name"
    data="$dir/data"
    mkdir -p "$dir"
    if [[ ! -f $data/standby.signal ]]; then
      rm -rf "$data"
      mkdir -p "$data"
      chmod 700 "$data"
      # a base backup of the primary with the WAL it needs, and the
      # primary_conninfo and standby.signal of a streaming replica (-R)
      # pg_ctl may be a lone link on PATH: pg_basebackup sits beside the real one
      basebackup=$(dirname "$(readlink -f "$bin/pg_ctl")")/pg_basebackup
      as_owner "$basebackup" -h 127.0.0.1 -p "$PGPORT" -U postgres -D "$data" -X stream -R >"$dir/basebackup.log" 2>&1 \
        || { cat "$dir/basebackup.log" >&2; exit 1; }
    fi
    if running; then dsn; exit 0; fi
    start_server "-c hot_standby=on -c fsync=off -c full_page_writes=off"
    dsn
    ;;
  start)
    mkdir -p "$dir"
    if [[ ! -f $data/PG_VERSION ]]; then
      rm -rf "$data"
      mkdir -p "$data"
      as_owner "$bin/initdb" -D "$data" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
        || as_owner "$bin/initdb" -D "$data" -U postgres --auth=trust --encoding=UTF8 --locale=C >"$dir/initdb.log" 2>&1 \
        || { cat "$dir/initdb.log" >&2; exit 1; }
    fi
    if running; then dsn; exit 0; fi
    # Restarted, an instance keeps its port when it is still free, so clients
    # (a stopped and restarted test database, make run's services) reconnect.
    # Test instances (names starting with "test") hold throwaway data: durability
    # off for speed. Every other instance (make run's "run") holds what people
    # type into the demo site: fsync, synchronous commit and full-page writes on.
    if [[ $name == test* ]]; then
      durability="-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
    else
      durability="-c fsync=on -c synchronous_commit=on -c full_page_writes=on"
    fi
    start_server "$durability"
    dsn
    ;;
  stop)
    # A fast shutdown still writes a checkpoint, which on a loaded machine
    # can outlast pg_ctl's wait: then stop at once (crash recovery at the
    # next start) rather than leave a server running behind the caller.
    if [[ -f $data/postmaster.pid ]]; then
      as_owner "$bin/pg_ctl" -D "$data" -m fast -w -t 60 stop >/dev/null 2>&1 ||
        as_owner "$bin/pg_ctl" -D "$data" -m immediate -w -t 30 stop >/dev/null 2>&1 || true
    fi
    ;;
  status)
    running
    ;;
  url)
    running || { echo "postgres.sh: instance $name is not running (hack/postgres.sh start $name)" >&2; exit 1; }
    dsn
    ;;
  destroy)
    if [[ -f $data/postmaster.pid ]]; then as_owner "$bin/pg_ctl" -D "$data" -m immediate -w stop >/dev/null 2>&1 || true; fi
    rm -rf "$dir"
    ;;
  *)
    echo "usage: hack/postgres.sh start|stop|status|url|destroy|replica [NAME]" >&2; exit 2;;
esac
