#!/usr/bin/env bash
# The machine's own packages the suites and benches need: the one list of them, why each is
# needed, and their set-up. `npm test` (scripts/test-all.sh) and `.ci/run` run it first.
#
#   scripts/system-deps.sh [test|bench]   (default: test)
#
# Every package missing from the set is installed with Debian's apt-get when this user may do it
# (root, or passwordless sudo: `sudo -n true`), and the script says what it installs and why.
# Otherwise it stops at once, exit 1, with the one command to run, instead of failing ten
# minutes later in the suite that needs it. An optional package that cannot be installed only
# gets a note. `apt-get update` runs only when an install failed (a fresh machine has no package
# lists), once.
#
# Where a variable names another place (CHROMIUM_PATH, E2E_CHROMIUM_PATH, PG_BIN,
# TEST_DATABASE_URL), that place is used and nothing is installed for it.
#
# Tests: scripts/system-deps.test.ts runs this script with fake `id`, `sudo` and `apt-get` first
# on PATH and SYSTEM_DEPS_ROOT, a directory standing for `/`, so it never touches the machine.
set -uo pipefail

set_name="${1:-test}"
root="${SYSTEM_DEPS_ROOT:-}"

#            package                  test      bench     why
DEPS=(
  "chromium                required  required  the browser of the Playwright suite (player-autoplay.spec always drives the full browser), of Lighthouse and of the page benches"
  "chromium-headless-shell optional  -         the Playwright suite drives it when it is there: the same Chromium without the desktop browser, about a quarter less CPU per test (docs/architecture.md); without it the suite drives chromium"
  "postgresql-15           required  optional  npm run test:postgres runs the database and attack suites on a throwaway PostgreSQL 15 cluster (scripts/pg-test-cluster.sh); the benches compare PGlite with it"
  "postgresql-15-postgis-3 required  -         PostGIS for PostgreSQL 15: the REST suite's GeoJSON test (Accept: application/geo+json, docs/rest-api.md) runs on the test cluster with it and skips on PGlite, which has none"
  "wrk                     -         optional  the rest bench's load generator (without it, autocannon in a Node process, which costs the server more CPU: docs/rest-api.md)"
)

case "$set_name" in
  test) column=1 ;;
  bench) column=2 ;;
  *)
    echo "usage: $0 [test|bench]" >&2
    exit 2
    ;;
esac

log() { echo "system-deps: $*"; }

# check PACKAGE: sets `verdict` to `ok`, `skip` (not needed: a variable chooses another place),
# `missing` (apt-get can install it) or `broken` (installing would not help; `problem` says why).
verdict='' problem=''
check() {
  verdict=missing problem=''
  case "$1" in
    chromium)
      if [ -n "${CHROMIUM_PATH:-}" ]; then
        [ -x "$CHROMIUM_PATH" ] && verdict=ok && return
        verdict=broken
        problem="CHROMIUM_PATH=$CHROMIUM_PATH is not an executable: point it at a Chromium, or unset it to use Debian's"
        return
      fi
      [ -x "$root/usr/bin/chromium" ] && verdict=ok
      ;;
    chromium-headless-shell)
      # tests/chromium.ts uses it only when neither variable chooses the browser.
      if [ -n "${CHROMIUM_PATH:-}" ] || [ -n "${E2E_CHROMIUM_PATH:-}" ]; then verdict=skip; return; fi
      [ -x "$root/usr/bin/chromium-headless-shell" ] && verdict=ok
      ;;
    postgresql-15)
      if [ -n "${TEST_DATABASE_URL:-}" ]; then verdict=skip; return; fi
      local bin="${PG_BIN:-$root/usr/lib/postgresql/15/bin}"
      if [ -x "$bin/postgres" ] && [ -x "$bin/initdb" ] && [ -x "$bin/pg_ctl" ]; then
        verdict=ok
        # As root, scripts/pg-test-cluster.sh runs the cluster as the `postgres` OS user, which
        # Debian's package creates.
        if [ "$(id -u)" = 0 ] && ! id postgres >/dev/null 2>&1; then
          verdict=broken
          problem="PostgreSQL 15 is in $bin but the 'postgres' OS user does not exist (as root, the test cluster runs as it): adduser --system --group postgres"
        fi
      elif [ -n "${PG_BIN:-}" ]; then
        verdict=broken
        problem="PG_BIN=$PG_BIN has no PostgreSQL 15 (postgres, initdb, pg_ctl): point it at one, or unset it to use Debian's"
      fi
      ;;
    postgresql-15-postgis-3)
      # Another server (TEST_DATABASE_URL) or PostgreSQL (PG_BIN) brings its own extensions.
      if [ -n "${TEST_DATABASE_URL:-}" ] || [ -n "${PG_BIN:-}" ]; then verdict=skip; return; fi
      [ -f "$root/usr/share/postgresql/15/extension/postgis.control" ] && verdict=ok
      ;;
    wrk)
      [ -x "$root/usr/bin/wrk" ] && verdict=ok
      ;;
  esac
}

required=() optional=() why_required=() why_optional=() broken=()
for line in "${DEPS[@]}"; do
  read -r package test_role bench_role why <<<"$line"
  roles=("$test_role" "$bench_role")
  role="${roles[$((column - 1))]}"
  [ "$role" = - ] && continue
  check "$package"
  case "$verdict" in
    missing)
      if [ "$role" = required ]; then
        required+=("$package")
        why_required+=("  $package: $why")
      else
        optional+=("$package")
        why_optional+=("  $package (optional): $why")
      fi
      ;;
    broken) broken+=("$problem") ;;
  esac
done

if [ "${#broken[@]}" -gt 0 ]; then
  for problem in "${broken[@]}"; do log "$problem."; done
  exit 1
fi

if [ "${#required[@]}" -eq 0 ] && [ "${#optional[@]}" -eq 0 ]; then
  log "the system packages of 'npm $([ "$set_name" = test ] && echo test || echo "run bench")' are installed."
  exit 0
fi

# How this user may run apt-get: as root, through passwordless sudo, or not at all.
as=()
may_install=yes
if ! command -v apt-get >/dev/null 2>&1; then
  may_install="no apt-get on this machine"
elif [ "$(id -u)" = 0 ]; then
  as=()
elif ! command -v sudo >/dev/null 2>&1; then
  may_install="not root, and no sudo"
elif sudo -n true >/dev/null 2>&1; then
  as=(sudo -n)
else
  may_install="not root, and sudo is not passwordless here"
fi
# The line to give the reader: through sudo, or su where there is none.
as_root() {
  if [ "$may_install" = "not root, and no sudo" ]; then echo "su -c '$*'"; else echo "sudo $*"; fi
}

if [ "$may_install" != yes ]; then
  if [ "${#required[@]}" -gt 0 ]; then
    log "these packages are missing, and this user cannot install them ($may_install):"
    printf '%s\n' "${why_required[@]}" "${why_optional[@]}"
    echo
    echo "Run this once, then run the same npm command again:"
    echo
    echo "  $(as_root apt-get install -y "${required[*]}")"
    echo
    [ "${#optional[@]}" -gt 0 ] && echo "(and, optional: $(as_root apt-get install -y "${optional[*]}"))"
    exit 1
  fi
  log "optional, not installed ($may_install):"
  printf '%s\n' "${why_optional[@]}"
  log "to install: $(as_root apt-get install -y "${optional[*]}")"
  exit 0
fi

apt_log="$(mktemp)"
trap 'rm -f "$apt_log"' EXIT
updated=''
apt_get() { "${as[@]}" env DEBIAN_FRONTEND=noninteractive apt-get "$@" >>"$apt_log" 2>&1; }
# install PACKAGE...: apt-get install, and once per run `apt-get update` and again when it failed.
install() {
  apt_get install -y -qq "$@" && return 0
  [ -n "$updated" ] && return 1
  updated=1
  log "apt-get update (the install failed; the package lists may be missing or old)"
  apt_get update -qq || return 1
  apt_get install -y -qq "$@"
}
who="${as[*]:-root}"
who="${who/sudo -n/sudo}"

if [ "${#required[@]}" -gt 0 ]; then
  log "installing ${required[*]} with apt-get (as $who):"
  printf '%s\n' "${why_required[@]}"
  if ! install "${required[@]}"; then
    tail -n 20 "$apt_log"
    log "apt-get could not install ${required[*]} (its output is above)."
    exit 1
  fi
fi
if [ "${#optional[@]}" -gt 0 ]; then
  log "installing ${optional[*]} with apt-get (as $who):"
  printf '%s\n' "${why_optional[@]}"
  install "${optional[@]}" || log "${optional[*]}: not available from apt-get here; going on without it."
fi

# What was installed must now be there (the package could install elsewhere, or not create the user).
failed=0
for package in "${required[@]}"; do
  check "$package"
  if [ "$verdict" != ok ]; then
    log "after installing $package: ${problem:-it is still not where the suites look for it}."
    failed=1
  fi
done
[ "$failed" = 0 ] && log "installed."
exit "$failed"
