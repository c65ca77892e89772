/**
 * scripts/system-deps.sh decides, for each package `npm test` needs, whether it is there, whether
 * this user may install it, and what to run otherwise. These tests run the real script with fake
 * `id`, `sudo` and `apt-get` (written here into a temp dir, the only commands on PATH besides a
 * few coreutils) and SYSTEM_DEPS_ROOT standing for `/`: nothing on this machine is checked,
 * installed or asked for a password.
 */
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('./system-deps.sh', import.meta.url));
const BASH = '/bin/bash';

/** Files each fake package puts under the root, as Debian's packages do under `/`. */
const FILES: Record<string, string[]> = {
  chromium: ['usr/bin/chromium'],
  'chromium-headless-shell': ['usr/bin/chromium-headless-shell'],
  'postgresql-15': ['postgres', 'initdb', 'pg_ctl'].map((b) => `usr/lib/postgresql/15/bin/${b}`),
  'postgresql-15-postgis-3': ['usr/share/postgresql/15/extension/postgis.control'],
  wrk: ['usr/bin/wrk'],
};

const FAKE_ID = `#!${BASH}
case "$1" in
  -u) echo "$FAKE_UID" ;;
  postgres) [ -e "$FAKE_STATE/postgres-user" ] ;;
  *) exit 1 ;;
esac
`;

// Passwordless when FAKE_SUDO=nopasswd; else \`sudo -n\` refuses as the real one does.
const FAKE_SUDO = `#!${BASH}
[ "$1" = -n ] && shift
if [ "$FAKE_SUDO" != nopasswd ]; then echo "sudo: a password is required" >&2; exit 1; fi
FAKE_UID=0 exec "$@"
`;

// Logs each call with the uid and DEBIAN_FRONTEND it ran with. \`install\` fails without the
// lists when FAKE_APT_LISTS=missing until \`update\` ran, fails for packages in FAKE_APT_UNKNOWN,
// needs uid 0, and creates the package's files (postgresql-15 also its OS user).
const FAKE_APT = `#!${BASH}
echo "uid=$(id -u) frontend=\${DEBIAN_FRONTEND:-} apt-get $*" >>"$FAKE_STATE/calls"
[ "$(id -u)" = 0 ] || { echo "E: Could not open lock file - open (13: Permission denied)"; exit 100; }
case "$1" in
  update) : >"$FAKE_STATE/lists"; exit 0 ;;
  install) shift ;;
  *) exit 100 ;;
esac
pkgs=()
for a in "$@"; do case "$a" in -*) ;; *) pkgs+=("$a") ;; esac; done
for p in "\${pkgs[@]}"; do
  if { [ "$FAKE_APT_LISTS" = missing ] && [ ! -e "$FAKE_STATE/lists" ]; } || [[ " $FAKE_APT_UNKNOWN " == *" $p "* ]]; then
    echo "E: Unable to locate package $p"; exit 100
  fi
done
for p in "\${pkgs[@]}"; do
  while read -r f; do
    [ -n "$f" ] || continue
    mkdir -p "$(dirname "$SYSTEM_DEPS_ROOT/$f")"
    printf '#!/bin/sh\\n' >"$SYSTEM_DEPS_ROOT/$f"
    chmod +x "$SYSTEM_DEPS_ROOT/$f"
  done < "$FAKE_STATE/files-$p"
  [ "$p" = postgresql-15 ] && : >"$FAKE_STATE/postgres-user"
done
exit 0
`;

interface Machine {
  /** Packages already installed. */
  installed?: string[];
  uid?: number;
  sudo?: 'nopasswd' | 'password' | 'absent';
  aptGet?: boolean;
  lists?: 'missing' | 'present';
  unknown?: string[];
  env?: Record<string, string>;
  /** Whether installing postgresql-15 beforehand also made its OS user (default yes). */
  postgresUser?: boolean;
  set?: 'test' | 'bench';
}

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function run(machine: Machine) {
  const dir = mkdtempSync(join(tmpdir(), 'soundloft-system-deps-'));
  dirs.push(dir);
  const [bin, root, state] = [join(dir, 'bin'), join(dir, 'root'), join(dir, 'state')] as const;
  for (const d of [bin, root, state]) mkdirSync(d);
  // The coreutils the script and the fakes use, and nothing else from the machine.
  for (const tool of ['env', 'true', 'mktemp', 'tail', 'rm', 'mkdir', 'chmod', 'dirname']) {
    const real = ['/usr/bin', '/bin'].map((d) => join(d, tool)).find((p) => existsSync(p));
    if (!real) throw new Error(`${tool} not found`);
    symlinkSync(real, join(bin, tool));
  }
  const fake = (name: string, text: string) => {
    writeFileSync(join(bin, name), text);
    chmodSync(join(bin, name), 0o755);
  };
  fake('id', FAKE_ID);
  if ((machine.sudo ?? 'absent') !== 'absent') fake('sudo', FAKE_SUDO);
  if (machine.aptGet ?? true) fake('apt-get', FAKE_APT);
  for (const [pkg, files] of Object.entries(FILES)) {
    writeFileSync(join(state, `files-${pkg}`), files.join('\n') + '\n');
  }
  for (const pkg of machine.installed ?? []) {
    for (const f of FILES[pkg]!) {
      mkdirSync(dirname(join(root, f)), { recursive: true });
      writeFileSync(join(root, f), '#!/bin/sh\n');
      chmodSync(join(root, f), 0o755);
    }
    if (pkg === 'postgresql-15' && machine.postgresUser !== false)
      writeFileSync(join(state, 'postgres-user'), '');
  }
  const result = spawnSync(BASH, [SCRIPT, machine.set ?? 'test'], {
    encoding: 'utf8',
    env: {
      PATH: bin,
      SYSTEM_DEPS_ROOT: root,
      FAKE_STATE: state,
      FAKE_UID: String(machine.uid ?? 1000),
      FAKE_SUDO: machine.sudo ?? 'absent',
      FAKE_APT_LISTS: machine.lists ?? 'present',
      FAKE_APT_UNKNOWN: (machine.unknown ?? []).join(' '),
      ...machine.env,
    },
  });
  const calls = existsSync(join(state, 'calls'))
    ? readFileSync(join(state, 'calls'), 'utf8').trim().split('\n')
    : [];
  const installedNow = Object.keys(FILES).filter((pkg) =>
    FILES[pkg]!.every((f) => existsSync(join(root, f))),
  );
  return { code: result.status, out: result.stdout + result.stderr, calls, installedNow };
}

const ALL = ['chromium', 'chromium-headless-shell', 'postgresql-15', 'postgresql-15-postgis-3'];
const PG = ['postgresql-15', 'postgresql-15-postgis-3'];

describe('scripts/system-deps.sh', () => {
  it('present: does nothing and says so', () => {
    const r = run({ installed: ALL, uid: 0 });
    expect(r.code).toBe(0);
    expect(r.calls).toEqual([]);
    expect(r.out).toContain("the system packages of 'npm test' are installed");
  });

  it('missing, as root: installs the required packages, then the optional one, without prompts', () => {
    const r = run({ installed: [], uid: 0 });
    expect(r.code).toBe(0);
    expect(r.calls).toEqual([
      'uid=0 frontend=noninteractive apt-get install -y -qq chromium postgresql-15 postgresql-15-postgis-3',
      'uid=0 frontend=noninteractive apt-get install -y -qq chromium-headless-shell',
    ]);
    expect(r.installedNow).toEqual(ALL);
    expect(r.out).toContain(
      'installing chromium postgresql-15 postgresql-15-postgis-3 with apt-get (as root)',
    );
    expect(r.out).toContain('npm run test:postgres runs');
    expect(r.out).toContain("the REST suite's GeoJSON test");
    expect(r.out).toContain('installed.');
  });

  it('missing, with passwordless sudo: installs through sudo', () => {
    const r = run({ installed: ['chromium-headless-shell'], uid: 1000, sudo: 'nopasswd' });
    expect(r.code).toBe(0);
    expect(r.calls).toEqual([
      'uid=0 frontend=noninteractive apt-get install -y -qq chromium postgresql-15 postgresql-15-postgis-3',
    ]);
    expect(r.installedNow).toEqual(ALL);
    expect(r.out).toContain('with apt-get (as sudo)');
  });

  it('missing, not root and sudo wants a password: stops at once with the one command', () => {
    const r = run({ installed: ['chromium'], uid: 1000, sudo: 'password' });
    expect(r.code).toBe(1);
    expect(r.calls).toEqual([]);
    expect(r.out).toContain('\n  sudo apt-get install -y postgresql-15 postgresql-15-postgis-3\n');
    expect(r.out).toContain('(and, optional: sudo apt-get install -y chromium-headless-shell)');
    expect(r.out).toContain('sudo is not passwordless');
  });

  it('missing, not root and no sudo at all: the same, through su', () => {
    const r = run({ installed: [], uid: 1000, sudo: 'absent' });
    expect(r.code).toBe(1);
    expect(r.calls).toEqual([]);
    expect(r.out).toContain('not root, and no sudo');
    expect(r.out).toContain(
      "\n  su -c 'apt-get install -y chromium postgresql-15 postgresql-15-postgis-3'\n",
    );
  });

  it('missing and no apt-get (not Debian): says what is needed', () => {
    const r = run({ installed: [], uid: 0, aptGet: false });
    expect(r.code).toBe(1);
    expect(r.out).toContain('no apt-get on this machine');
    expect(r.out).toContain('chromium: the browser of the Playwright suite');
  });

  it('a fresh machine without package lists: apt-get update once, then the install again', () => {
    const r = run({ installed: [], uid: 0, lists: 'missing' });
    expect(r.code).toBe(0);
    expect(r.calls).toEqual([
      'uid=0 frontend=noninteractive apt-get install -y -qq chromium postgresql-15 postgresql-15-postgis-3',
      'uid=0 frontend=noninteractive apt-get update -qq',
      'uid=0 frontend=noninteractive apt-get install -y -qq chromium postgresql-15 postgresql-15-postgis-3',
      'uid=0 frontend=noninteractive apt-get install -y -qq chromium-headless-shell',
    ]);
    expect(r.installedNow).toEqual(ALL);
  });

  it('an optional package apt-get does not have: goes on without it', () => {
    const r = run({ installed: PG, uid: 0, unknown: ['chromium-headless-shell'] });
    expect(r.code).toBe(0);
    expect(r.installedNow).toEqual(['chromium', ...PG]);
    expect(r.out).toContain('chromium-headless-shell: not available from apt-get here');
  });

  it('a required package apt-get does not have: fails with apt-get output', () => {
    const r = run({
      installed: ['chromium', 'postgresql-15-postgis-3'],
      uid: 0,
      unknown: ['postgresql-15'],
    });
    expect(r.code).toBe(1);
    expect(r.out).toContain('E: Unable to locate package postgresql-15');
    expect(r.out).toContain('apt-get could not install postgresql-15');
  });

  it('only an optional package missing and no right to install: a note, and on', () => {
    const r = run({ installed: ['chromium', ...PG], uid: 1000, sudo: 'password' });
    expect(r.code).toBe(0);
    expect(r.calls).toEqual([]);
    expect(r.out).toContain('to install: sudo apt-get install -y chromium-headless-shell');
  });

  it('variables that choose another place: nothing installed for them', () => {
    const r = run({
      installed: [],
      uid: 0,
      env: { TEST_DATABASE_URL: 'postgresql://x@127.0.0.1/db', E2E_CHROMIUM_PATH: '/x' },
    });
    expect(r.code).toBe(0);
    expect(r.calls).toEqual(['uid=0 frontend=noninteractive apt-get install -y -qq chromium']);

    const missingPath = run({ installed: ALL, uid: 0, env: { CHROMIUM_PATH: '/nowhere/chrome' } });
    expect(missingPath.code).toBe(1);
    expect(missingPath.calls).toEqual([]);
    expect(missingPath.out).toContain('CHROMIUM_PATH=/nowhere/chrome is not an executable');
  });

  it('PostgreSQL present without its OS user: as root, says how to add it', () => {
    const asRoot = run({ installed: ALL, uid: 0, postgresUser: false });
    expect(asRoot.code).toBe(1);
    expect(asRoot.calls).toEqual([]);
    expect(asRoot.out).toContain("the 'postgres' OS user does not exist");
    expect(asRoot.out).toContain('adduser --system --group postgres');
    // Not root: the test cluster runs as this user.
    expect(run({ installed: ALL, uid: 1000, postgresUser: false }).code).toBe(0);
  });

  it('npm run bench: wrk is optional there, and not part of npm test', () => {
    const test = run({ installed: ALL, uid: 0, set: 'test' });
    expect(test.calls).toEqual([]);
    const bench = run({ installed: ['chromium', 'postgresql-15'], uid: 0, set: 'bench' });
    // PostGIS is for the test cluster only: not asked for by the bench.
    expect(bench.code).toBe(0);
    expect(bench.calls).toEqual(['uid=0 frontend=noninteractive apt-get install -y -qq wrk']);
    const benchNoRight = run({
      installed: ['chromium', 'postgresql-15'],
      uid: 1000,
      sudo: 'password',
      set: 'bench',
    });
    expect(benchNoRight.code).toBe(0);
    expect(benchNoRight.out).toContain('autocannon');
  });
});
