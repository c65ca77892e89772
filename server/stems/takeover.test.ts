/**
 * Stem jobs on several nodes (docs/nodes.md): a separation that stalled past its lease and ends
 * after another node took the job over and finished it writes nothing: not the job row, not the
 * stem objects; a separation handed back by a drain (JobLoop.handBack) is queued again at once,
 * its claim not counted, and its late result writes nothing either. Two stem runners with their
 * own connection pools on one database.
 */
import { describe, expect, it, vi } from 'vitest';
import { testDatabaseKind } from '../db/test-database';
import { gate, waitUntil } from '../db/test-node-process';
import { useTwoNodes } from '../db/use-test-database';
import { makeMp3, synthSignal } from '../processing/test-fixtures';
import { trackWithOriginal } from '../processing/test-support';
import { openObjectStore } from '../storage/object-store';
import { startStemJobs } from './jobs';
import type { StemFiles } from './separate';
import { STEM_NAMES, type StemName } from './separate';

vi.setConfig({ testTimeout: 60_000 });

const nodes = useTwoNodes();
const store = openObjectStore('memory');

/** Four "stems" (the same MP3 bytes, told apart by `label` in their length). */
async function fakeStems(label: number): Promise<StemFiles> {
  const mp3 = await makeMp3(synthSignal(1 + label, { channels: 1 }), 128);
  const files = Object.fromEntries(STEM_NAMES.map((n) => [n, mp3])) as Record<StemName, Uint8Array>;
  return { files, sampleRate: 44_100, seconds: 1, timings: { decode: 0, separate: 0, encode: 0 } };
}

const stemsOf = async (trackId: string) =>
  (
    await nodes.test.db.query<{ name: string; size: string }>(
      `select name, metadata->>'size' as size from storage.objects
        where bucket_id = 'stems' and name like $1 || '/%' order by name`,
      [trackId],
    )
  ).rows;

const jobOf = async (trackId: string) =>
  (
    await nodes.test.db.query<Record<string, unknown>>(
      `select state, attempts, locked_by, progress, last_error from public.stem_jobs
        where track_id = $1`,
      [trackId],
    )
  ).rows[0];

/**
 * A track with its stem job claimed by node A, whose separation reports 0.5 and then stalls until
 * `stalled` opens (then returns stems of label 2).
 */
async function claimedByStalledA() {
  const trackId = await trackWithOriginal(
    nodes.test.db,
    store,
    (await fakeStems(0)).files.vocals,
    'ready',
  );
  await nodes.test.db.query('insert into public.stem_jobs (track_id) values ($1)', [trackId]);
  const stalled = gate();
  const logsA: string[] = [];
  const late = await fakeStems(2);
  const a = startStemJobs({
    db: nodes.test.db,
    store,
    workers: 1,
    pollMs: 50,
    leaseMs: 600_000,
    log: (line) => logsA.push(line),
    separate: async (_bytes, onProgress) => {
      onProgress?.(0.5);
      await stalled.opened;
      return late;
    },
  });
  // Its progress report (a renewal) is in.
  await waitUntil(async () => (await jobOf(trackId))?.progress === 0.5);
  return { trackId, a, stalled, logsA };
}

/** Node B, whose separation returns `files` at once. */
const nodeB = (files: StemFiles) =>
  startStemJobs({
    db: nodes.nodeB,
    store,
    workers: 1,
    pollMs: 50,
    leaseMs: 600_000,
    separate: () => Promise.resolve(files),
  });

describe(`stem jobs on two nodes (${testDatabaseKind()})`, () => {
  it("a stalled separation that ends after a takeover does not overwrite the takeover's stems", async () => {
    const { trackId, a, stalled, logsA } = await claimedByStalledA();
    const onTime = await fakeStems(1);
    // Its lease runs out, as if its renewals had not reached the database.
    await nodes.test.db.query(
      `update public.stem_jobs set locked_at = now() - interval '1 hour' where track_id = $1`,
      [trackId],
    );
    const b = nodeB(onTime);
    await waitUntil(async () => (await jobOf(trackId))?.state === 'done');
    await b.close();
    const done = { job: await jobOf(trackId), stems: await stemsOf(trackId) };
    expect(done.job).toMatchObject({ state: 'done', attempts: 2, locked_by: null });
    expect(done.stems.map((s) => Number(s.size))).toEqual(
      STEM_NAMES.map(() => onTime.files.vocals.length),
    );

    stalled.open();
    await waitUntil(async () => logsA.some((line) => line.includes('lease of')));
    await a.close();
    expect({ job: await jobOf(trackId), stems: await stemsOf(trackId) }).toEqual(done);
  });

  it('a separation handed back at a drain is queued at once, not counted, and finished once elsewhere', async () => {
    const { trackId, a, stalled, logsA } = await claimedByStalledA();
    expect(await a.handBack()).toBe(1);
    await a.close(); // does not wait for the separation handed back
    expect(await jobOf(trackId)).toMatchObject({
      state: 'queued',
      attempts: 0,
      locked_by: null,
      progress: 0,
    });
    const b = nodeB(await fakeStems(1));
    await waitUntil(async () => (await jobOf(trackId))?.state === 'done');
    await b.close();
    const done = { job: await jobOf(trackId), stems: await stemsOf(trackId) };
    expect(done.job).toMatchObject({ state: 'done', attempts: 1, locked_by: null });

    stalled.open();
    await waitUntil(async () => logsA.some((line) => line.includes('lease of')));
    expect({ job: await jobOf(trackId), stems: await stemsOf(trackId) }).toEqual(done);
  });
});
