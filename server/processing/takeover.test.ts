/**
 * Jobs on several nodes (docs/nodes.md): a worker killed mid-job leaves the job to another node,
 * which finishes it once; a worker that stalled past its lease and wakes up after a takeover
 * writes nothing (fenced by its claim's token). Two processing runners with their own connection
 * pools on one database (on PGlite, one database in one process), an object store on disk both
 * read; the SIGKILL case runs a node in a child process (PostgreSQL only).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { drain } from '../ops/drain';
import { createHealth } from '../ops/health';
import { createLogger } from '../ops/log';
import { DATABASE_HOOK_TIMEOUT_MS, testDatabaseKind } from '../db/test-database';
import { gate, startNodeProcess, waitUntil } from '../db/test-node-process';
import { useTwoNodes } from '../db/use-test-database';
import { openObjectStore, type ObjectStore } from '../storage/object-store';
import { startTrackProcessing, type TrackProcessingOptions } from './jobs';
import type { ProcessedAudio } from './process-audio';
import { makeMp3, synthSignal } from './test-fixtures';
import { trackWithOriginal } from './test-support';
import { ProcessingPool } from './worker-pool';

vi.setConfig({ testTimeout: 60_000 });

const nodes = useTwoNodes();
let dataDir: string;
let store: ObjectStore;
let mp3: Uint8Array;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'soundloft-takeover-'));
  store = openObjectStore(dataDir);
  mp3 = await makeMp3(synthSignal(2, { channels: 1 }), 128);
}, DATABASE_HOOK_TIMEOUT_MS);
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const queuedTrack = () => trackWithOriginal(nodes.test.db, store, mp3, 'processing');

async function outcome(trackId: string) {
  const { rows } = await nodes.test.db.query<Record<string, unknown>>(
    `select t.status, j.state, j.attempts, j.locked_by,
            (select count(*)::int from public.track_waveforms w where w.track_id = t.id) as waveforms,
            (select json_agg(json_build_object('name', o.name, 'id', o.id, 'updated_at', o.updated_at)
                             order by o.name)
               from storage.objects o
              where o.bucket_id = 'renditions' and o.name like t.id || '/%') as renditions
       from public.tracks t join public.track_jobs j on j.track_id = t.id where t.id = $1`,
    [trackId],
  );
  return rows[0] as {
    status: string;
    state: string;
    attempts: number;
    locked_by: string | null;
    waveforms: number;
    renditions: { name: string }[] | null;
  };
}

/** Waits until the job's worker has written its first stage. */
const stageReported = (trackId: string) =>
  waitUntil(async () => {
    const { rows } = await nodes.test.db.query(
      `select 1 from public.tracks where id = $1 and processing_stage = 'decoding'`,
      [trackId],
    );
    return rows.length > 0;
  });

/**
 * Runs `b` until the track's job ends, closes it, and checks the job was finished once: ready,
 * `attempts` claims counted, one waveform, one rendition set. Resolves to the outcome.
 */
async function finishedOnceBy(b: { close(): Promise<void> }, trackId: string, attempts: number) {
  await waitUntil(async () => ['done', 'failed'].includes((await outcome(trackId)).state));
  await b.close();
  const done = await outcome(trackId);
  expect(done).toMatchObject({ status: 'ready', state: 'done', attempts, locked_by: null });
  expect(done.waveforms).toBe(1);
  expect(done.renditions?.map((r) => r.name)).toEqual([`${trackId}/standard.mp3`]);
  return done;
}

describe(`processing jobs on two nodes (${testDatabaseKind()})`, () => {
  /**
   * Node A claims the job and stalls; its lease runs out (written as if its renewals had not
   * reached the database); node B takes the job over and finishes it; then A wakes up with
   * `wake` (a result or an error) and must change nothing.
   */
  async function stalledThenTakenOver(wake: (bytes: Uint8Array) => Promise<ProcessedAudio>) {
    const trackId = await queuedTrack();
    const started = gate();
    const stalled = gate();
    const logsA: string[] = [];
    const base: Omit<TrackProcessingOptions, 'db'> = { store, workers: 1, pollMs: 50 };
    const a = startTrackProcessing({
      ...base,
      db: nodes.test.db,
      leaseMs: 600_000, // no renewal during the test: the lease ends when the test says
      log: (line) => logsA.push(line),
      processAudio: async (bytes, onStage) => {
        onStage('decoding', 0);
        started.open();
        await stalled.opened;
        return wake(bytes);
      },
    });
    await started.opened;
    await stageReported(trackId); // its last renewal (the stage report) is in
    await nodes.test.db.query(
      `update public.track_jobs set locked_at = now() - interval '1 hour' where track_id = $1`,
      [trackId],
    );
    const b = startTrackProcessing({ ...base, db: nodes.nodeB, leaseMs: 600_000 });
    await waitUntil(async () => (await outcome(trackId)).state === 'done');
    await b.close();
    const done = await outcome(trackId);
    expect(done).toMatchObject({ status: 'ready', state: 'done', attempts: 2, locked_by: null });
    expect(done.waveforms).toBe(1);
    expect(done.renditions?.map((r) => r.name)).toEqual([`${trackId}/standard.mp3`]);

    stalled.open();
    await waitUntil(async () => logsA.some((line) => line.includes('lease of')));
    await a.close();
    expect(logsA.join('\n')).toContain(`processing: ${trackId}: the lease of ${trackId} was lost`);
    // Node A wrote nothing: the same rows, the same rendition objects, not queued again.
    expect(await outcome(trackId)).toEqual(done);
  }

  it('a stalled worker that fails after a takeover does not queue the job again', async () => {
    await stalledThenTakenOver(() => Promise.reject(new Error('the worker ran out of memory')));
  });

  it("a stalled worker that finishes after a takeover does not overwrite the takeover's result", async () => {
    const pool = new ProcessingPool(1);
    try {
      await stalledThenTakenOver((bytes) => pool.process(bytes, () => undefined));
    } finally {
      await pool.close();
    }
  });

  it('a drain whose deadline comes mid-job hands the job back at once; another node finishes it once', async () => {
    const trackId = await queuedTrack();
    const stalled = gate<ProcessedAudio>();
    const logsA: string[] = [];
    const logged: string[] = [];
    const base: Omit<TrackProcessingOptions, 'db'> = { store, workers: 1, pollMs: 50 };
    const a = startTrackProcessing({
      ...base,
      db: nodes.test.db,
      leaseMs: 600_000, // a takeover by lease cannot happen during the test
      log: (line) => logsA.push(line),
      processAudio: async (_bytes, onStage) => {
        onStage('decoding', 0);
        return stalled.opened; // a step that does not end before the deadline
      },
    });
    await stageReported(trackId);
    expect(await outcome(trackId)).toMatchObject({ state: 'running', attempts: 1 });

    // The hand-back starts a quarter of the timeout (1 s) before the deadline.
    const timeoutMs = 4000;
    const result = await drain(
      {
        health: createHealth({ db: nodes.test.db, store }),
        logger: createLogger('json', { write: (line: string) => logged.push(line) > 0 }),
        jobs: [a],
        close: () => a.close(),
        delayMs: 0,
        timeoutMs,
      },
      'SIGTERM',
    );
    // Back in the queue as the drain ends, due now, its claim not counted, nobody's.
    const back = await outcome(trackId);
    expect(back).toMatchObject({ status: 'processing', state: 'queued', attempts: 0 });
    expect(back.locked_by).toBeNull();
    expect(result).toBe('drained'); // within DRAIN_TIMEOUT_MS
    expect(logsA).toContain(`processing: ${trackId} handed back to the queue (drain)`);
    expect(logged.join('\n')).toContain('1 job(s) still running handed back to the queue');

    // Another node takes it at once (its lease would still hold for 10 minutes) and finishes it.
    const b = startTrackProcessing({ ...base, db: nodes.nodeB, leaseMs: 600_000 });
    const done = await finishedOnceBy(b, trackId, 1);

    // The drained run's step ends after all: fenced, it writes nothing.
    const pool = new ProcessingPool(1);
    try {
      stalled.open(await pool.process(new Uint8Array(mp3), () => undefined)); // a copy: transferred
    } finally {
      await pool.close();
    }
    await waitUntil(async () => logsA.some((line) => line.includes('lease of')));
    expect(await outcome(trackId)).toEqual(done);
  });

  it.runIf(testDatabaseKind() === 'postgres')(
    'a node killed with SIGKILL mid-job: another node takes the job over and finishes it once',
    async () => {
      const leaseMs = 1500;
      const trackId = await queuedTrack();
      const killed = await startNodeProcess<Record<string, never>>(
        'server/processing/test-node.ts',
        {
          TEST_NODE_DATABASE_URL: nodes.test.url ?? '',
          TEST_NODE_DATA_DIR: dataDir,
          TEST_NODE_LEASE_MS: String(leaseMs),
        },
      );
      try {
        await stageReported(trackId); // mid-job: claimed, and its first stage reported
        expect(await outcome(trackId)).toMatchObject({ state: 'running', attempts: 1 });
      } finally {
        await killed.kill('SIGKILL');
      }
      const b = startTrackProcessing({ db: nodes.nodeB, store, workers: 1, pollMs: 50, leaseMs });
      await finishedOnceBy(b, trackId, 2);
    },
  );

  it.runIf(testDatabaseKind() === 'postgres')(
    'a node stopped with SIGTERM mid-job hands the job back as it exits; another node finishes it once',
    async () => {
      const trackId = await queuedTrack();
      const drained = await startNodeProcess<Record<string, never>>(
        'server/processing/test-node.ts',
        {
          TEST_NODE_DATABASE_URL: nodes.test.url ?? '',
          TEST_NODE_DATA_DIR: dataDir,
          TEST_NODE_LEASE_MS: '600000', // no takeover by lease during the test
          TEST_NODE_DRAIN_TIMEOUT_MS: '3000',
        },
      );
      await stageReported(trackId); // mid-job, in a stage that does not end
      expect(await outcome(trackId)).toMatchObject({ state: 'running', attempts: 1 });
      await drained.kill('SIGTERM'); // resolves once the process has exited
      expect(await outcome(trackId)).toMatchObject({
        status: 'processing',
        state: 'queued',
        attempts: 0,
        locked_by: null,
      });
      expect(drained.lines.join('\n')).toMatch(/SIGTERM: drained in \d+\.\d s, exiting/);
      const b = startTrackProcessing({ db: nodes.nodeB, store, workers: 1, pollMs: 50 });
      await finishedOnceBy(b, trackId, 1);
    },
  );
});
