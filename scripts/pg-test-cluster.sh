#!/usr/bin/env bash
# A throwaway PostgreSQL 15 cluster for tests.
#
#   scripts/pg-test-cluster.sh [start]   initdb into a new temp dir, start it, print its URL on stdout
#   scripts/pg-test-cluster.sh stop [PORT]  stop (and delete) the cluster on PORT, or every one started
#   scripts/pg-test-cluster.sh status    list the running clusters
#
#   export TEST_DATABASE_URL="$(scripts/pg-test-cluster.sh start)"
#
# The server runs as the `postgres` OS user (required when invoked as root, as in CI), listens on
# 127.0.0.1 on the first free port from PG_TEST_PORT (default 54329), keeps its unix socket in the
# temp dir, trusts local connections, and trades durability for speed (fsync off). Progress goes to
# stderr; stdout carries only the URL.
set -euo pipefail

PG_BIN="${PG_BIN:-/usr/lib/postgresql/15/bin}"
STATE_FILE="${PG_TEST_STATE_FILE:-${TMPDIR:-/tmp}/soundloft-pg-test-clusters}"
FIRST_PORT="${PG_TEST_PORT:-54329}"

log() { echo "pg-test-cluster: $*" >&2; }

# Runs a command as the user that owns the cluster.
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

port_in_use() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

free_port() {
  local port="$FIRST_PORT"
  while port_in_use "$port"; do
    port=$((port + 1))
    if [ "$port" -gt $((FIRST_PORT + 100)) ]; then
      log "no free port in $FIRST_PORT..$port"
      exit 1
    fi
  done
  echo "$port"
}

start() {
  [ -x "$PG_BIN/initdb" ] || { log "PostgreSQL binaries not found in $PG_BIN (set PG_BIN)"; exit 1; }
  local dir port user
  dir="$(mktemp -d "${TMPDIR:-/tmp}/soundloft-pg.XXXXXX")"
  chmod 700 "$dir"
  if [ "$(id -u)" -eq 0 ]; then
    id postgres >/dev/null 2>&1 || { log "the 'postgres' OS user does not exist"; exit 1; }
    chown postgres: "$dir"
    user=postgres
  else
    user="$(id -un)"
  fi
  port="$(free_port)"
  log "initdb in $dir"
  as_owner "$PG_BIN/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 --no-sync >"$dir/initdb.log" 2>&1 \
    || { cat "$dir/initdb.log" >&2; exit 1; }
  log "starting on port $port (owner $user)"
  as_owner "$PG_BIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 start \
    -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
    >&2 || { cat "$dir/server.log" >&2; exit 1; }
  echo "$port $dir" >>"$STATE_FILE"
  echo "postgresql://postgres@127.0.0.1:$port/postgres"
}

stop_one() {
  local port="$1" dir="$2"
  if [ -d "$dir/data" ]; then
    log "stopping port $port ($dir)"
    as_owner "$PG_BIN/pg_ctl" -D "$dir/data" -m immediate -w stop >&2 || true
  fi
  rm -rf "$dir"
}

stop() {
  local only="${1:-}" keep=()
  [ -f "$STATE_FILE" ] || { log "no cluster started"; return 0; }
  while read -r port dir; do
    [ -n "${port:-}" ] || continue
    if [ -z "$only" ] || [ "$only" = "$port" ]; then
      stop_one "$port" "$dir"
    else
      keep+=("$port $dir")
    fi
  done <"$STATE_FILE"
  if [ "${#keep[@]}" -eq 0 ]; then rm -f "$STATE_FILE"; else printf '%s\n' "${keep[@]}" >"$STATE_FILE"; fi
}

status() {
  [ -f "$STATE_FILE" ] || { log "no cluster started"; return 0; }
  while read -r port dir; do
    [ -n "${port:-}" ] || continue
    if as_owner "$PG_BIN/pg_ctl" -D "$dir/data" status >/dev/null 2>&1; then state=running; else state=stopped; fi
    echo "$port $state postgresql://postgres@127.0.0.1:$port/postgres $dir"
  done <"$STATE_FILE"
}

case "${1:-start}" in
  start) start ;;
  stop) stop "${2:-}" ;;
  status) status ;;
  *) log "usage: $0 [start|stop [PORT]|status]"; exit 2 ;;
esac
