#!/usr/bin/env bash
# `npm run test:postgres`: the database suites (server/db, rest, storage, functions, supabase,
# tests/search: the relevance set against search_catalogue) and the attack suite (tests/security,
# docs/security.md) on a real PostgreSQL 15, and the multi-node
# test (tests/multinode: web nodes and workers as processes on one database and one S3 endpoint). Uses
# TEST_DATABASE_URL when set; otherwise starts a throwaway cluster and removes it afterwards.
# `npm run test:unit` and `npm run test:security` run the same suites on PGlite.
set -euo pipefail
cd "$(dirname "$0")/.."

SUITES=(server/db server/rest server/storage server/functions server/auth server/seed server/realtime server/processing server/stems/takeover.test.ts server/plays supabase tests/search)

run_suites() {
  npx vitest run --project node "${SUITES[@]}"
  npx vitest run --config tests/security/vitest.config.ts
  # Two web nodes and workers as separate processes, one S3 endpoint (tests/multinode).
  npx vitest run --project multinode
}

if [ -n "${TEST_DATABASE_URL:-}" ]; then
  run_suites
  exit
fi

if [ ! -x "${PG_BIN:-/usr/lib/postgresql/15/bin}/postgres" ]; then
  echo "test:postgres: PostgreSQL 15 is not installed (scripts/system-deps.sh, which npm test runs first, installs it)." >&2
  if [ -n "${CI:-}" ]; then exit 1; fi
  echo "test:postgres: skipped on this machine." >&2
  exit 0
fi

url="$(scripts/pg-test-cluster.sh start)"
# Stop only this run's cluster: other runs (another checkout, CI) may have theirs on this machine.
port="${url##*:}"
port="${port%%/*}"
trap 'scripts/pg-test-cluster.sh stop "$port" >/dev/null 2>&1 || true' EXIT
TEST_DATABASE_URL="$url" run_suites
