/**
 * The upload pipeline's rules in Postgres (migration 20261125100000): a track row may only point
 * at its uploader's own audio object; what processing measures is the server's; listeners see
 * ready tracks only; renditions and originals are fetched by plan; the job queue is internal.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { asRole } from '../../server/db/as-role';
import { attempt, sqlStateOf } from '../../server/db/test-attempt';
import { DATABASE_HOOK_TIMEOUT_MS, testDatabaseKind } from '../../server/db/test-database';
import { useTestDatabase } from '../../server/db/use-test-database';
import {
  createAdmin,
  createAudioObject,
  createTrack,
  createUser,
  type TestUser,
} from '../../server/db/test-factories';

const test = useTestDatabase();
let owner: TestUser;
let other: TestUser;
let admin: TestUser;
let premium: TestUser;
let basic: TestUser;

async function insertAs(user: TestUser, values: Record<string, unknown>) {
  return asRole(test.db, user.claims, async (tx) => {
    const cols = Object.keys(values);
    const { rows } = await tx.query<Record<string, unknown>>(
      `insert into public.tracks (${cols.join(', ')}) values (${cols.map((_, i) => `$${i + 1}`).join(', ')})
       returning id, status, processing_stage, duration, audio_url, qualities, loudness_lufs`,
      Object.values(values),
    );
    return rows[0]!;
  });
}

beforeAll(async () => {
  owner = await createUser(test.db);
  other = await createUser(test.db);
  admin = await createAdmin(test.db);
  premium = await createUser(test.db);
  basic = await createUser(test.db);
  await test.db.query(`update profiles set subscription_plan = 'premium' where id = $1`, [
    premium.id,
  ]);
  await test.db.query(`update profiles set subscription_plan = 'basic' where id = $1`, [basic.id]);
}, DATABASE_HOOK_TIMEOUT_MS);

describe(`upload pipeline rules (${testDatabaseKind()})`, () => {
  it('creates a track in processing from the uploader’s own object, with a job and empty lyrics', async () => {
    const objectName = await createAudioObject(test.db, owner);
    const row = await insertAs(owner, {
      title: 'Fresh',
      artist: 'Me',
      audio_url: `http://localhost:8787/storage/v1/object/public/tracks/${objectName}`,
      uploaded_by: owner.id,
      duration: 9999,
    });
    expect(row).toMatchObject({
      status: 'processing',
      processing_stage: 'queued',
      duration: 0,
      audio_url: `tracks/${objectName}`,
      qualities: [],
      loudness_lufs: null,
    });
    const job = await test.db.query('select state from track_jobs where track_id = $1', [row.id]);
    expect(job.rows).toEqual([{ state: 'queued' }]);
    const lyrics = await test.db.query('select lyrics from track_lyrics where track_id = $1', [
      row.id,
    ]);
    expect(lyrics.rows).toEqual([{ lyrics: [] }]);
  });

  it('refuses a track that points at no object, another user’s object, or a cover', async () => {
    const othersObject = await createAudioObject(test.db, other);
    for (const audio_url of [
      `tracks/${owner.id}/missing.mp3`,
      `tracks/${othersObject}`,
      `covers/${owner.id}/x.png`,
      'https://evil.test/a.mp3',
    ]) {
      const error = await insertAs(owner, {
        title: 'T',
        artist: 'A',
        audio_url,
        uploaded_by: owner.id,
      }).catch((e: unknown) => e);
      expect(sqlStateOf(error), audio_url).toBe('23503');
      expect((error as Error).message).toBe('Audio file not found. Please upload it again.');
    }
  });

  it('keeps processing results out of the uploader’s reach', async () => {
    const objectName = await createAudioObject(test.db, owner);
    const { id } = await insertAs(owner, {
      title: 'T',
      artist: 'A',
      audio_url: `tracks/${objectName}`,
      uploaded_by: owner.id,
    });
    for (const sql of [
      `update tracks set status = 'ready' where id = $1`,
      `update tracks set qualities = '{standard,high,lossless}' where id = $1`,
      `update tracks set loudness_lufs = -14 where id = $1`,
      `update tracks set duration = 600 where id = $1`,
    ]) {
      expect(await attempt(test.db, owner.claims, sql, [id]), sql).toBe('denied');
    }
    const repoint = await attempt(
      test.db,
      owner.claims,
      `update tracks set audio_url = 'tracks/${owner.id}/other.mp3' where id = $1`,
      [id],
    );
    expect(repoint).toBe('denied');
    expect(
      await attempt(test.db, owner.claims, `update tracks set title = 'Renamed' where id = $1`, [
        id,
      ]),
    ).toBe('ok');
    expect(await attempt(test.db, owner.claims, 'select * from track_jobs')).toBe('denied');
    expect(await attempt(test.db, admin.claims, 'select * from track_jobs')).toBe('denied');
  });

  it('shows a track in processing or failed to its uploader and admins only', async () => {
    for (const status of ['processing', 'failed'] as const) {
      const { id } = await createTrack(test.db, owner, { status });
      const sql = 'select id from tracks where id = $1';
      expect(await attempt(test.db, null, sql, [id]), status).toBe('hidden');
      expect(await attempt(test.db, other.claims, sql, [id]), status).toBe('hidden');
      expect(await attempt(test.db, owner.claims, sql, [id]), status).toBe('ok');
      expect(await attempt(test.db, admin.claims, sql, [id]), status).toBe('ok');
    }
  });

  it('retries a failed track for its uploader or an admin, and nothing else', async () => {
    const { id } = await createTrack(test.db, owner, { status: 'failed' });
    const retry = 'select public.retry_track_processing($1)';
    expect(await attempt(test.db, other.claims, retry, [id])).toBe('error PT404');
    expect(await attempt(test.db, null, retry, [id])).toBe('denied');
    expect(await attempt(test.db, owner.claims, retry, [id])).toBe('ok');
    await asRole(test.db, admin.claims, (tx) => tx.query(retry, [id]));
    const row = await test.db.query(
      'select t.status, t.processing_stage, j.state from tracks t join track_jobs j on j.track_id = t.id where t.id = $1',
      [id],
    );
    expect(row.rows).toEqual([
      { status: 'processing', processing_stage: 'queued', state: 'queued' },
    ]);
    expect(await attempt(test.db, owner.claims, retry, [id])).toBe('error 22023');
  });

  it('lets each plan fetch the renditions it pays for, and the uploader and admins all', async () => {
    const { id } = await createTrack(test.db, owner);
    await test.db.query(`update tracks set qualities = '{standard,high,lossless}' where id = $1`, [
      id,
    ]);
    const objectName = `${owner.id}/1700000000000_track.mp3`;
    await test.db.query(`update tracks set audio_url = $2 where id = $1`, [
      id,
      `tracks/${objectName}`,
    ]);
    for (const file of ['standard.mp3', 'high.mp3']) {
      await test.db.query(
        `insert into storage.objects (bucket_id, name, metadata) values ('renditions', $1, '{"mimetype":"audio/mpeg"}')`,
        [`${id}/${file}`],
      );
    }
    await createAudioObject(test.db, owner, '1700000000000_track.mp3');
    const can = async (user: TestUser | null, bucket: string, name: string) =>
      (await attempt(
        test.db,
        user?.claims ?? null,
        'select 1 from storage.objects where bucket_id = $1 and name = $2',
        [bucket, name],
      )) === 'ok';
    const standard = `${id}/standard.mp3`;
    const high = `${id}/high.mp3`;
    const free = other;
    expect([await can(free, 'renditions', standard), await can(free, 'renditions', high)]).toEqual([
      true,
      false,
    ]);
    expect([await can(basic, 'renditions', high), await can(basic, 'tracks', objectName)]).toEqual([
      true,
      false,
    ]);
    expect([
      await can(premium, 'renditions', high),
      await can(premium, 'tracks', objectName),
    ]).toEqual([true, true]);
    expect([
      await can(null, 'renditions', standard),
      await can(null, 'tracks', objectName),
    ]).toEqual([false, false]);
    expect(await can(owner, 'tracks', objectName)).toBe(true);
    expect(await can(admin, 'renditions', high)).toBe(true);
    // Not ready: even premium listeners get nothing.
    await test.db.query(`update tracks set status = 'processing' where id = $1`, [id]);
    expect(await can(premium, 'renditions', standard)).toBe(false);
    expect(await can(owner, 'renditions', standard)).toBe(true);
    // A name that is not a track id is nothing, not an error.
    expect(await can(premium, 'renditions', `${randomUUID()}/standard.mp3`)).toBe(false);
    expect(await can(premium, 'renditions', 'not-a-uuid/standard.mp3')).toBe(false);
  });

  it('lets nobody but the server write renditions, waveforms or jobs', async () => {
    const { id } = await createTrack(test.db, owner);
    const cases = [
      `insert into storage.objects (bucket_id, name) values ('renditions', '${id}/standard.mp3')`,
      `insert into track_waveforms (track_id, sample_rate, samples_per_pixel, length, data) values ('${id}', 44100, 1, 0, '[]')`,
      `insert into track_jobs (track_id) values ('${id}')`,
    ];
    for (const sql of cases) {
      for (const user of [owner, admin]) {
        const outcome = await attempt(test.db, user.claims, sql);
        expect(outcome === 'denied' || outcome === 'error 42501', `${sql} as ${user.email}`).toBe(
          true,
        );
      }
    }
  });
});
