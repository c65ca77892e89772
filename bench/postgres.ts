/**
 * The PostgreSQL 15 the benches compare PGlite with: TEST_DATABASE_URL when it is a loopback
 * address, else a throwaway cluster from scripts/pg-test-cluster.sh, stopped by `cleanup`.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Cleanup } from './cleanup';

const CLUSTER_SCRIPT = fileURLToPath(new URL('../scripts/pg-test-cluster.sh', import.meta.url));

export interface PostgresServer {
  url: string;
  /** Where it came from, for the report ('TEST_DATABASE_URL' or the cluster's port and start time). */
  how: string;
}

function sh(args: string[], timeoutMs: number, env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('bash', args, { timeout: timeoutMs, encoding: 'utf8', env }, (error, out, err) => {
      if (error) reject(new Error(`${args.join(' ')}: ${error.message}\n${err}`));
      else resolve(out);
    });
  });
}

const isLoopback = (url: string) =>
  ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(url).hostname);

/**
 * The server, or why there is none (print it as `PostgreSQL: <reason>: skipped`). `name` keeps
 * the cluster in a state file of this process and bench, so another session's
 * `pg-test-cluster.sh stop` (which stops every cluster of its state file) cannot stop ours.
 */
export async function startPostgres(
  cleanup: Cleanup,
  name: string,
): Promise<PostgresServer | string> {
  const given = process.env.TEST_DATABASE_URL;
  if (given) {
    return isLoopback(given)
      ? { url: given, how: 'TEST_DATABASE_URL' }
      : 'TEST_DATABASE_URL is not a loopback address';
  }
  const bin = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';
  if (!existsSync(`${bin}/initdb`)) {
    return `binaries not found in ${bin} (set PG_BIN or TEST_DATABASE_URL)`;
  }
  const started = performance.now();
  const env = {
    ...process.env,
    PG_TEST_STATE_FILE: join(tmpdir(), `soundloft-bench-${name}-pg-${process.pid}`),
  };
  const url = (await sh([CLUSTER_SCRIPT, 'start'], 60_000, env)).trim().split('\n').pop() ?? '';
  const port = new URL(url).port;
  cleanup.add(`stop cluster on port ${port}`, async () => {
    await sh([CLUSTER_SCRIPT, 'stop', port], 30_000, env);
  });
  if (!isLoopback(url)) throw new Error(`cluster not on loopback: ${url}`);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  return { url, how: `throwaway cluster, port ${port}, started in ${seconds} s` };
}

/** Clock ticks per second of /proc's utime and stime (USER_HZ: 100 on Linux). */
const USER_HZ = 100;

/**
 * CPU time used so far by the PostgreSQL server listening on `port` (the postmaster and every
 * process it started: backends, WAL writer...), in µs, read from /proc; null when not found
 * (not Linux, or not a local server). 10 ms resolution: compare over seconds of load.
 */
export function postgresCpuMicros(port: number): number | null {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((e) => /^\d+$/.test(e));
  } catch {
    return null;
  }
  const stats = new Map<number, { ppid: number; ticks: number }>();
  let postmaster: number | undefined;
  for (const entry of entries) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The command name is in brackets and may hold spaces: fields start after the last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (!stat.includes('(postgres)')) continue;
      const pid = Number(entry);
      stats.set(pid, { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) });
      if (postmaster === undefined) {
        const args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
        const p = args.indexOf('-p');
        if (p >= 0 && Number(args[p + 1]) === port) postmaster = pid;
      }
    } catch {
      // The process ended while being read.
    }
  }
  if (postmaster === undefined) return null;
  let ticks = 0;
  for (const [pid, s] of stats) if (pid === postmaster || s.ppid === postmaster) ticks += s.ticks;
  return (ticks * 1e6) / USER_HZ;
}
