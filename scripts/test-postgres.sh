#!/usr/bin/env bash
# `npm run test:postgres`: the database suites (server/db, rest, storage, functions, supabase) on a real
# PostgreSQL 15. Uses TEST_DATABASE_URL when set; otherwise starts a throwaway cluster and
# removes it afterwards. `npm run test:unit` runs the same suites on PGlite.
set -euo pipefail
cd "$(dirname "$0")/.."

SUITES=(server/db server/rest server/storage server/functions server/auth server/seed server/realtime server/processing server/plays supabase)

if [ -n "${TEST_DATABASE_URL:-}" ]; then
  exec npx vitest run --project node "${SUITES[@]}"
fi

if [ ! -x "${PG_BIN:-/usr/lib/postgresql/15/bin}/postgres" ]; then
  echo "test:postgres: PostgreSQL 15 is not installed (apt-get install -y postgresql-15)." >&2
  if [ -n "${CI:-}" ]; then exit 1; fi
  echo "test:postgres: skipped on this machine." >&2
  exit 0
fi

url="$(scripts/pg-test-cluster.sh start)"
# Stop only this run's cluster: other runs (another checkout, CI) may have theirs on this machine.
port="${url##*:}"
port="${port%%/*}"
trap 'scripts/pg-test-cluster.sh stop "$port" >/dev/null 2>&1 || true' EXIT
TEST_DATABASE_URL="$url" npx vitest run --project node "${SUITES[@]}"
