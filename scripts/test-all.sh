#!/usr/bin/env bash
# `npm test`: every check and suite; each step starts when the one before passed.
#   0. the machine's packages the suites need (scripts/system-deps.sh: Chromium, PostgreSQL 15):
#      installed with apt-get when this user may, else a stop at once with the command to run.
#   1. typecheck, lint:eslint, lint:cycles and format:check side by side (`npm run lint` is the
#      last three):
#      each is one single-threaded process, and one after the other they left a core idle
#      (docs/architecture.md, "Tests and figures"). Each one's output is kept and printed whole
#      when it ends, with its time.
#   2. test:unit, test:security, test:faults, test:postgres, test:e2e, one after the other: each
#      fills both cores already, and side by side under load the database suites ran past their
#      timeouts.
set -uo pipefail
cd "$(dirname "$0")/.."

started=$(date +%s)
logs="$(mktemp -d)"
trap 'rm -rf "$logs"' EXIT

# phase NAME... : runs `npm run NAME` for each at once and waits for all of them.
phase() {
  local names=("$@") pids=() failed=() name i
  for name in "${names[@]}"; do
    (
      t0=$(date +%s)
      npm run --silent "$name" >"$logs/$name.log" 2>&1
      rc=$?
      echo "$rc $(($(date +%s) - t0))" >"$logs/$name.status"
      exit "$rc"
    ) &
    pids+=("$!")
  done
  # Print each one's output as it ends, not in the order they started.
  local left=${#names[@]}
  local done_=()
  while [ "$left" -gt 0 ]; do
    wait -n "${pids[@]}" 2>/dev/null || true
    for i in "${!names[@]}"; do
      name=${names[$i]}
      if [ -f "$logs/$name.status" ] && [ -z "${done_[$i]:-}" ]; then
        done_[$i]=1
        left=$((left - 1))
        read -r rc secs <"$logs/$name.status"
        printf '\n=== npm run %s: %s in %ss (at %ss)\n' "$name" \
          "$([ "$rc" = 0 ] && echo passed || echo "FAILED ($rc)")" "$secs" \
          "$(($(date +%s) - started))"
        cat "$logs/$name.log"
        [ "$rc" = 0 ] || failed+=("$name")
      fi
    done
  done
  wait
  if [ "${#failed[@]}" -gt 0 ]; then
    printf '\n=== failed: %s\n' "${failed[*]}"
    exit 1
  fi
}

# A single check runs in the foreground: its output streams (the e2e suite's progress).
serial() {
  local t0
  t0=$(date +%s)
  printf '\n=== npm run %s (at %ss)\n' "$1" "$(($(date +%s) - started))"
  npm run --silent "$1" || { printf '\n=== failed: %s\n' "$1"; exit 1; }
  printf '\n=== npm run %s: passed in %ss\n' "$1" "$(($(date +%s) - t0))"
}

bash scripts/system-deps.sh test || exit 1
phase typecheck lint:eslint lint:cycles format:check
serial test:unit
serial test:security
serial test:faults
serial test:postgres
serial test:e2e
printf '\n=== npm test: passed in %ss\n' "$(($(date +%s) - started))"
