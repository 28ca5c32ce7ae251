#!/usr/bin/env bash
# Runs a command with TEST_DATABASE_URL pointing at a throwaway PostgreSQL
# server when PostgreSQL is installed, so the store contract suite runs
# against it too. Without PostgreSQL the command runs as is (SQLite only),
# except with CI set (CI=true, as CI runs .ci/run), where that is an error.
set -euo pipefail

PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n1 || true)
if [[ -z "${TEST_DATABASE_URL:-}" && ( -z "$PGBIN" || ! -x "$PGBIN/initdb" ) && -n "${CI:-}" && "${CI}" != "false" ]]; then
  echo "with-postgres: ERROR: CI is set and PostgreSQL is not installed; in CI the PostgreSQL store tests must run (apt-get install postgresql)." >&2
  exit 1
fi
if [[ -n "${TEST_DATABASE_URL:-}" || -z "$PGBIN" || ! -x "$PGBIN/initdb" ]]; then
  [[ -z "${TEST_DATABASE_URL:-}" && -z "$PGBIN" ]] && echo "with-postgres: PostgreSQL not installed; store tests run on SQLite only" >&2
  exec "$@"
fi

PGDIR=$(mktemp -d /tmp/simulador-pg.XXXXXX)
# PGPORT_TEST picks the port; otherwise a free one below Linux's ephemeral
# range (32768 and up), where an outgoing connection of another program may
# hold a port for a while and make the server fail to start.
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
PORT=${PGPORT_TEST:-}
if [[ -z "$PORT" ]]; then
  for _ in $(seq 50); do
    PORT=$(( 20000 + RANDOM % 12000 ))
    port_free "$PORT" && break
  done
fi
as_pg() { if [[ $(id -u) -eq 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi; }
cleanup() {
  as_pg "$PGBIN/pg_ctl" -D "$PGDIR/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$PGDIR"
}
trap cleanup EXIT
[[ $(id -u) -eq 0 ]] && chown postgres:postgres "$PGDIR"
as_pg "$PGBIN/initdb" -D "$PGDIR/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null
as_pg "$PGBIN/pg_ctl" -D "$PGDIR/data" -l "$PGDIR/log" -w -o "-c listen_addresses=127.0.0.1 -p $PORT -k $PGDIR -c fsync=off" start >/dev/null
export TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$PORT/postgres?sslmode=disable"
echo "with-postgres: PostgreSQL at 127.0.0.1:$PORT" >&2
"$@"
