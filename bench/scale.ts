/**
 * `npm run bench -- scale`: what one extra web node adds on this machine. One PostgreSQL 15
 * (bench/postgres.ts), web nodes as separate processes (`server/main.ts`, `SOUNDLOFT_ROLE=web`,
 * tests/multinode/node-process.ts) sharing it and one object store, and `wrk` (or autocannon)
 * in other processes. Two workloads, each measured with one node and with two nodes in
 * alternating rounds, so the machine's load of the moment weighs on both alike:
 *
 * - stream 64k and stream 1m: Range GETs (64 KiB; 1 MiB) of a 3 MB MP3 rendition through a
 *   signed URL, as the player reads (the two sizes split the cost into per request and per byte)
 *   reads (every answer also records the play evidence in PostgreSQL, docs/plays.md);
 * - rest: a single-row GET of a track with RLS as a signed-in listener.
 *
 * With two nodes the connections are split between them, one load generator per node, as a
 * round-robin balancer would (the figures are summed). Server CPU per request is read from each
 * node's /proc/<pid>/stat. The object store is one DATA_DIR both nodes read (BENCH_SCALE_STORE=s3:
 * the s3rver test server in this process instead, which then measures s3rver more than the nodes).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openTestDatabase } from '../server/db/test-database';
import { createTrack, createUser } from '../server/db/test-factories';
import { loadKeys } from '../server/keys/keys';
import { objectStoreFromEnv, putObjectAsService } from '../server/storage';
import { startTestS3Server } from '../server/storage/test-s3';
import { accessToken } from '../server/storage/test-support';
import { mp3Bytes } from '../server/storage/test-files';
import {
  startNodeProcess,
  stopNodeProcess,
  type NodeProcess,
} from '../tests/multinode/node-process';
import { Cleanup } from './cleanup';
import { startPostgres } from './postgres';
import { startLoadGenerator, type LoadResult, type LoadSpec } from './rest-load';

const ROUNDS = Math.max(2, Number(process.env.BENCH_SCALE_ROUNDS) || 4);
const SECONDS = Math.max(1, Number(process.env.BENCH_SCALE_SECONDS) || 4);
const CONNECTIONS = 16;
/** Range sizes of the stream workloads, bytes. */
const RANGES = { 'stream 64k': 64 * 1024, 'stream 1m': 1024 * 1024 } as const;

/** The fields of /proc/<pid>/stat after the command (index 0 is the state), or null. */
function statFields(pid: number | string): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null; // gone
  }
}
/** Clock ticks (10 ms) of the stat fields at `indexes`, in µs. */
const ticks = (fields: string[] | null, indexes: number[]) =>
  indexes.reduce((sum, i) => sum + Number(fields?.[i] ?? 0), 0) * 10_000;

/** CPU time of a process so far, µs (utime + stime, its threads included). */
function cpuMicros(pid: number | undefined): number {
  return pid ? ticks(statFields(pid), [11, 12]) : 0;
}

/**
 * CPU time of a PostgreSQL cluster so far, µs: the postmaster (with its children that ended,
 * cutime + cstime) and the backends alive now (their parent is the postmaster).
 */
function clusterCpuMicros(postmaster: number): number {
  let total = ticks(statFields(postmaster), [11, 12, 13, 14]);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = statFields(entry);
    if (Number(fields?.[1]) === postmaster) total += ticks(fields, [11, 12]);
  }
  return total;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
};
const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');

interface Round {
  rps: number;
  p50: number;
  p99: number;
  failed: number;
  cpuPerRequest: number;
  /** PostgreSQL's CPU per answer (all its processes), µs. */
  pgPerRequest: number;
  mbps: number;
}

export async function benchScale(): Promise<void> {
  console.log('\nScale: one web node against two (separate processes, one PostgreSQL)');
  const cleanup = new Cleanup();
  try {
    const pg = await startPostgres(cleanup, 'scale');
    if (typeof pg === 'string') {
      console.log(`  PostgreSQL: ${pg}: skipped`);
      return;
    }
    const test = await openTestDatabase({ TEST_DATABASE_URL: pg.url });
    cleanup.add('close database', () => test.close());
    const secret = 'soundloft-bench-secret-at-least-32-characters';
    const keys = loadKeys({ JWT_SECRET: secret }, () => undefined);
    const dataDir = mkdtempSync(join(tmpdir(), 'soundloft-bench-scale-'));
    cleanup.add('remove the data', () => rmSync(dataDir, { recursive: true, force: true }));
    let storeEnv: Record<string, string> = { DATA_DIR: dataDir };
    if (process.env.BENCH_SCALE_STORE === 's3') {
      const s3 = await startTestS3Server();
      cleanup.add('stop s3rver', () => s3.close());
      storeEnv = { ...storeEnv, ...s3.env };
    }

    // A listener old enough to count plays, a ready track and its 3 MB rendition.
    const artist = await createUser(test.db);
    const listener = await createUser(test.db, { established: true });
    const track = await createTrack(test.db, artist, { title: 'Scale', duration: 180 });
    const rendition = `${track.id}/standard.mp3`;
    const bytes = mp3Bytes(7200); // 7200 frames of 128 kbps: 3.0 MB, 188 s
    await putObjectAsService(test.db, objectStoreFromEnv(storeEnv), {
      bucket: 'renditions',
      name: rendition,
      owner: artist.id,
      bytes,
      contentType: 'audio/mpeg',
    });
    // What processing records for a track with a standard rendition (the reads' policy asks it).
    await test.db.query(`update public.tracks set qualities = '{standard}' where id = $1`, [
      track.id,
    ]);
    const token = accessToken(keys, listener, 24 * 3600);
    // The cluster's postmaster (on this machine: the URL is loopback), for its CPU time.
    const { rows } = await test.db.query<{ dir: string }>(
      `select setting as dir from pg_settings where name = 'data_directory'`,
    );
    const postmaster = Number(
      readFileSync(join(rows[0]?.dir ?? '', 'postmaster.pid'), 'utf8').split('\n')[0],
    );

    const env = {
      ...storeEnv,
      DATABASE_URL: test.url ?? '',
      DIST_DIR: dataDir,
      JWT_SECRET: secret,
    };
    const nodes: NodeProcess[] = [];
    cleanup.add('stop the nodes', () =>
      Promise.all(nodes.map((n) => stopNodeProcess(n, 'SIGTERM'))).then(() => undefined),
    );
    for (const name of ['A', 'B']) nodes.push(await startNodeProcess(name, 'web', env));
    const [a, b] = nodes as [NodeProcess, NodeProcess];

    const signed = await fetch(`${a.url}/storage/v1/object/sign/renditions/${rendition}`, {
      method: 'POST',
      headers: {
        apikey: keys.anonKey,
        Authorization: `Bearer ${token}`,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({ expiresIn: 24 * 3600 }),
    });
    const signedBody = (await signed.json()) as { signedURL?: string };
    const signedPath = signedBody.signedURL;
    if (!signedPath)
      throw new Error(`no signed URL: ${signed.status} ${JSON.stringify(signedBody)}`);
    const streamPath = `/storage/v1${signedPath}`;
    const rangesOf = (size: number) =>
      Array.from({ length: Math.floor(bytes.length / size) }, (_, i) => ({
        token: 0,
        vars: {},
        headers: { Range: `bytes=${i * size}-${(i + 1) * size - 1}` },
      }));
    const check = await fetch(`${b.url}${streamPath}`, {
      headers: { Range: 'bytes=0-65535' },
    });
    if (check.status !== 206)
      throw new Error(`stream check: ${check.status} ${await check.text()}`);

    const generators = [await startLoadGenerator(), await startLoadGenerator()];
    cleanup.add('stop load', () => generators.forEach((g) => g.close()));
    const workloads: Record<
      string,
      (origin: string, connections: number, prefix: string) => LoadSpec
    > = {
      ...Object.fromEntries(
        Object.entries(RANGES).map(([name, size]) => [
          name,
          (origin: string, connections: number, prefix: string): LoadSpec => ({
            origin,
            method: 'GET',
            path: streamPath,
            headers: {}, // the Range is each variant's; the signed URL needs no apikey
            tokens: [token],
            variants: rangesOf(size),
            prefix,
            connections,
            seconds: SECONDS,
          }),
        ]),
      ),
      rest: (origin, connections, prefix) => ({
        origin,
        method: 'GET',
        path: `/rest/v1/tracks?id=eq.${track.id}&select=id,title,artist,duration,plays`,
        headers: { apikey: keys.anonKey },
        tokens: [token],
        variants: [{ token: 0, vars: {} }],
        prefix,
        connections,
        seconds: SECONDS,
      }),
    };

    const measure = async (workload: string, active: NodeProcess[], i: number): Promise<Round> => {
      const spec = workloads[workload];
      if (!spec) throw new Error(workload);
      const cpu0 = active.map((n) => cpuMicros(n.child.pid));
      const pg0 = clusterCpuMicros(postmaster);
      const results = await Promise.all(
        active.map((n, j) =>
          (generators[j] ?? generators[0])?.run(
            spec(
              n.url,
              CONNECTIONS / active.length,
              `${workload}-${i}-${j}-${randomUUID().slice(0, 4)}`,
            ),
          ),
        ),
      );
      if (results.some((r) => r === undefined)) throw new Error('no load generator');
      const done = results as LoadResult[];
      const cpu = active.reduce((sum, n, j) => sum + cpuMicros(n.child.pid) - (cpu0[j] ?? 0), 0);
      const pgCpu = clusterCpuMicros(postmaster) - pg0;
      const ok = done.reduce((s, r) => s + r.ok, 0);
      const rps = done.reduce((s, r) => s + r.rps, 0);
      return {
        rps,
        p50: Math.max(...done.map((r) => r.p50)),
        p99: Math.max(...done.map((r) => r.p99)),
        failed: done.reduce((s, r) => s + r.failed, 0),
        cpuPerRequest: cpu / Math.max(1, ok),
        pgPerRequest: pgCpu / Math.max(1, ok),
        mbps: (rps * (RANGES[workload as keyof typeof RANGES] ?? 0) * 8) / 1e6,
      };
    };

    const before = load();
    console.log(
      `  PostgreSQL 15 (${pg.how}), store: ${process.env.BENCH_SCALE_STORE === 's3' ? 's3rver' : 'one DATA_DIR'}, ` +
        `${generators[0]?.name}, ${CONNECTIONS} connections in all, ${ROUNDS} rounds of ${SECONDS} s per setup, ` +
        `alternating; ${cpus().length} cores; load ${before}`,
    );
    for (const workload of Object.keys(workloads)) {
      await measure(workload, nodes, -1); // warm both nodes
      const rounds: Record<'1' | '2', Round[]> = { '1': [], '2': [] };
      for (let i = 0; i < ROUNDS * 2; i++) {
        const two = i % 2 === 1;
        rounds[two ? '2' : '1'].push(await measure(workload, two ? nodes : [a], i));
      }
      const stream = workload in RANGES;
      console.log(
        `  ${workload.padEnd(10)} nodes  ${'req/s (rounds)'.padEnd(40)} p50 ms  p99 ms  ` +
          `node CPU µs/req  PG CPU µs/req${stream ? '  Mbit/s' : ''}`,
      );
      for (const n of ['1', '2'] as const) {
        const rs = rounds[n];
        const med = (f: (r: Round) => number, digits = 0) => median(rs.map(f)).toFixed(digits);
        const least = (f: (r: Round) => number) => Math.min(...rs.map(f)).toFixed(0);
        const perRound = `${med((r) => r.rps)} (${rs.map((r) => r.rps.toFixed(0)).join(', ')})`;
        console.log(
          `  ${''.padEnd(10)} ${n.padStart(5)}  ${perRound.padEnd(40)} ${med((r) => r.p50, 2).padStart(6)}  ` +
            `${med((r) => r.p99, 2).padStart(6)}  ${least((r) => r.cpuPerRequest).padStart(15)}  ` +
            `${least((r) => r.pgPerRequest).padStart(13)}${stream ? `  ${med((r) => r.mbps).padStart(6)}` : ''}` +
            (rs.some((r) => r.failed > 0) ? `  failed ${rs.map((r) => r.failed).join(',')}` : ''),
        );
      }
      const gain = median(rounds['2'].map((r) => r.rps)) / median(rounds['1'].map((r) => r.rps));
      console.log(`  ${''.padEnd(10)} two nodes / one: ×${gain.toFixed(2)}; load now ${load()}`);
    }
    for (const line of [
      `Limits of this machine: its ${cpus().length} cores run both web nodes, PostgreSQL (every signed read also`,
      'writes its evidence row), the two load generators and whatever else the machine runs, so a second node',
      'can only add what a core left idle: req/s here says little about more machines. What carries over is',
      "CPU per answer (the nodes' own, and PostgreSQL's, in the least disturbed round): a core serves about",
      '1e6 / (CPU µs/req) answers per second. p50/p99: the median round; docs/deploy.md § Sizing.',
    ])
      console.log(`  ${line}`);
  } finally {
    await cleanup.run();
  }
}
