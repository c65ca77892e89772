import bcrypt from 'bcryptjs';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncAdmins } from '../db/admins';
import { DATABASE_HOOK_TIMEOUT_MS, openTestDatabase, type TestDatabase } from '../db/test-database';
import { createUser } from '../db/test-factories';
import { openObjectStore, type ObjectStore } from '../storage/object-store';
import { parseMp3 } from './mp3';
import { DEMO_PASSWORD, seedDemoCatalogue, type SeedResult } from './index';

const ADMINS = ['admin@soundloft.local', 'second-admin@soundloft.local'];

async function readAll(store: ObjectStore, bucket: string, name: string): Promise<Uint8Array> {
  const stored = await store.read(bucket, name);
  if (!stored) throw new Error(`${bucket}/${name} missing`);
  return new Uint8Array(await new Response(stored.stream).arrayBuffer());
}

describe('seedDemoCatalogue (two tracks, on worker threads)', () => {
  let test: TestDatabase;
  let store: ObjectStore;
  let result: SeedResult;

  beforeAll(async () => {
    test = await openTestDatabase();
    store = openObjectStore('memory');
    await syncAdmins(test.db, ADMINS);
    result = await seedDemoCatalogue(test.db, store, {
      adminEmails: ADMINS,
      limit: 2,
      workers: 2,
      cacheDir: false,
    });
  }, 120_000);
  afterAll(() => test?.close(), DATABASE_HOOK_TIMEOUT_MS);

  it('seeds, and returns the demo accounts with the shared password', async () => {
    expect(result.seeded).toBe(true);
    expect(result.accounts.map((a) => [a.role, a.email])).toEqual([
      ['admin', 'admin@soundloft.local'],
      ['artist', 'artist@soundloft.local'],
      ['listener', 'listener@soundloft.local'],
      ['premium', 'premium@soundloft.local'],
    ]);
    const { rows } = await test.db.query<{
      email: string;
      encrypted_password: string;
      confirmed: boolean;
      name: string;
    }>(
      `select email, encrypted_password, email_confirmed_at is not null as confirmed,
              raw_user_meta_data ->> 'name' as name
         from auth.users where email = any($1::text[])`,
      [result.accounts.map((a) => a.email)],
    );
    expect(rows).toHaveLength(4);
    for (const row of rows) {
      expect(row.confirmed).toBe(true);
      expect(row.name).toBeTruthy();
      expect(row.encrypted_password).toMatch(/^\$2[aby]\$10\$/);
      expect(await bcrypt.compare(DEMO_PASSWORD, row.encrypted_password)).toBe(true);
    }
  });

  it('makes the admin an admin and the premium listener premium', async () => {
    const { rows } = await test.db.query<{ email: string; plan: string; admin: boolean }>(
      `select p.email, p.subscription_plan as plan,
              exists (select 1 from public.admins a where a.user_id = p.id) as admin
         from public.profiles p where p.email like '%@soundloft.local' order by p.email`,
    );
    expect(rows).toEqual([
      { email: 'admin@soundloft.local', plan: 'free', admin: true },
      { email: 'artist@soundloft.local', plan: 'free', admin: false },
      { email: 'listener@soundloft.local', plan: 'free', admin: false },
      { email: 'premium@soundloft.local', plan: 'premium', admin: false },
    ]);
  });

  it('stores audio in the private tracks bucket and covers behind same-origin public paths', async () => {
    const { rows } = await test.db.query<{
      audio_url: string;
      cover_image: string;
      duration: number;
      plays: string;
      verified: boolean;
    }>(
      'select audio_url, cover_image, duration, plays, verified from public.tracks order by title',
    );
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      const audio = /^tracks\/([0-9a-f-]{36})\/(\d+)_\w+\.mp3$/.exec(row.audio_url);
      expect(audio).not.toBeNull();
      const mp3 = await readAll(store, 'tracks', row.audio_url.slice('tracks/'.length));
      expect(Math.abs(parseMp3(mp3).durationSeconds - row.duration)).toBeLessThan(1);
      const png = await readAll(
        store,
        'covers',
        decodeURIComponent(row.cover_image.split('/public/covers/')[1]!),
      );
      expect(PNG.sync.read(Buffer.from(png)).width).toBe(512);
      expect(Number(row.plays)).toBeGreaterThan(0);
      expect(row.verified).toBe(true);
    }
    const { rows: objects } = await test.db.query<{ bucket_id: string; n: string }>(
      `select bucket_id, count(*) as n from storage.objects group by bucket_id order by bucket_id`,
    );
    expect(objects).toEqual([
      { bucket_id: 'avatars', n: '9' },
      { bucket_id: 'covers', n: '2' },
      { bucket_id: 'renditions', n: '2' },
      { bucket_id: 'tracks', n: '2' },
    ]);
  });

  it('runs every track through the upload pipeline: ready, measured, peaks, a standard rendition', async () => {
    const { rows } = await test.db.query<{
      id: string;
      audio_url: string;
      status: string;
      duration: number;
      sample_rate: number;
      channels: number;
      original_format: string;
      loudness_lufs: number;
      true_peak_db: number;
      qualities: string[];
      length: number;
      data: number[];
      sample_rate_w: number;
      jobs: string;
    }>(
      `select t.id, t.audio_url, t.status, t.duration, t.sample_rate, t.channels, t.original_format,
              t.loudness_lufs, t.true_peak_db, t.qualities, w.length, w.data,
              w.sample_rate as sample_rate_w,
              (select count(*) from public.track_jobs j where j.track_id = t.id) as jobs
         from public.tracks t join public.track_waveforms w on w.track_id = t.id`,
    );
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row).toMatchObject({
        status: 'ready',
        sample_rate: 22050,
        channels: 1,
        original_format: 'mpeg',
        // A 64 kbps MP3 is its own standard rendition; no 320 kbps below 32 kHz; not lossless.
        qualities: ['standard'],
        sample_rate_w: 22050,
        jobs: '0',
      });
      // The mix peaks at -1 dBFS (music/render.ts); MP3 overshoots a little.
      expect(row.true_peak_db).toBeGreaterThan(-3);
      expect(row.true_peak_db).toBeLessThan(1);
      expect(row.loudness_lufs).toBeGreaterThan(-30);
      expect(row.loudness_lufs).toBeLessThan(-5);
      expect(row.length).toBeGreaterThan(900);
      expect(row.length).toBeLessThanOrEqual(1000);
      expect(row.data).toHaveLength(row.length * 2);
      expect(Math.max(...row.data)).toBeGreaterThan(64); // music, not silence
      const original = await readAll(store, 'tracks', row.audio_url.slice('tracks/'.length));
      const standard = await readAll(store, 'renditions', `${row.id}/standard.mp3`);
      expect(Buffer.compare(Buffer.from(standard), Buffer.from(original))).toBe(0);
      expect(parseMp3(standard)).toMatchObject({ sampleRate: 22050, bitrateKbps: 64 });
    }
  });

  it('keeps every balance equal to its ledger and to the seeded plays', async () => {
    const { rows } = await test.db.query<{ balance: string; ledger: string; earned: string }>(
      `select p.balance::text,
              (select coalesce(sum(amount), 0) from public.earnings_ledger l where l.user_id = p.id)::text as ledger,
              (select coalesce(sum(plays), 0) * public.play_rate_eur() from public.tracks t where t.uploaded_by = p.id)::text as earned
         from public.profiles p`,
    );
    for (const row of rows) {
      expect(Number(row.balance)).toBe(Number(row.ledger));
      expect(Number(row.balance)).toBe(Number(row.earned));
    }
  });

  it('spreads each track’s earnings over the months since its release (at most 12), 2.10 EUR per 1,000 plays', async () => {
    const { rows } = await test.db.query<{
      title: string;
      plays: number;
      released: string;
      months: number;
      expected_months: number;
      entries: number;
      earned: string;
      owed: string;
      future: number;
      rate: string;
    }>(
      `select t.title, t.plays, t.created_at::text as released,
              count(distinct date_trunc('month', l.created_at at time zone 'utc'))::int as months,
              (select count(*)::int from generate_series(
                 date_trunc('month', greatest(t.created_at, now() - interval '365 days') at time zone 'utc'),
                 date_trunc('month', now() at time zone 'utc'), interval '1 month')) as expected_months,
              count(l.id)::int as entries,
              sum(l.amount)::text as earned,
              (t.plays * public.play_rate_eur())::text as owed,
              count(*) filter (where l.created_at > now())::int as future,
              public.play_rate_eur()::text as rate
         from public.tracks t join public.earnings_ledger l on l.track_id = t.id and l.kind = 'play'
        group by t.id`,
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(Number(row.rate)).toBe(0.0021);
      // Not one day's lump: every month the track was out has its entry, one per month.
      expect(row.months, `${row.title} released ${row.released}`).toBe(row.expected_months);
      expect(row.entries).toBe(row.months);
      expect(row.months).toBeGreaterThan(1);
      expect(row.future).toBe(0);
      expect(Number(row.earned)).toBe(Number(row.owed));
    }
  });

  it('writes insights roll-ups whose plays are the seeded plays and whose curves fall from 100 %', async () => {
    const { rows } = await test.db.query<{
      title: string;
      plays: number;
      rolled: number;
      skips: number;
      listens: number;
    }>(
      `select t.title, t.plays::int as plays, coalesce(sum(d.plays), 0)::int as rolled,
              coalesce(sum(d.skips), 0)::int as skips, coalesce(sum(d.listens), 0)::int as listens
         from public.tracks t join public.insights_daily d on d.track_id = t.id
        group by t.id`,
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      // Plays of today are the live part: the roll-ups hold the days before.
      expect(r.rolled, r.title).toBeLessThanOrEqual(r.plays);
      expect(r.rolled, r.title).toBeGreaterThan(r.plays * 0.9);
      expect(r.skips / r.listens, r.title).toBeGreaterThan(0.1);
    }
    const { rows: curves } = await test.db.query<{ c: { share: number }[] }>(
      `select public.insights_curve(public.insights_sum(d.reach), public.insights_sum(d.seek_cover)) as c
         from public.insights_daily d group by d.track_id`,
    );
    for (const { c } of curves) {
      expect(c[0]!.share).toBe(100);
      expect(c.at(-1)!.share).toBeLessThan(70);
      for (let i = 1; i < c.length; i++) expect(c[i]!.share).toBeLessThanOrEqual(c[i - 1]!.share);
    }
  });

  it('writes synced lyrics, playlists, follows, likes and recent history', async () => {
    const { rows: lyrics } = await test.db.query<{
      lyrics: { timestamp: number; text: string }[];
      is_synced: boolean;
    }>('select lyrics, is_synced from public.track_lyrics');
    expect(lyrics).toHaveLength(2); // both first tracks have lyrics
    for (const l of lyrics) {
      expect(l.is_synced).toBe(true);
      const times = l.lyrics.map((line) => line.timestamp);
      expect(times).toEqual([...times].sort((a, b) => a - b));
    }
    const { rows: counts } = await test.db.query<Record<string, string>>(
      `select (select count(*) from public.followers) as follows,
              (select count(*) from public.liked_tracks) as likes,
              (select count(*) from public.listening_history where listened_at > now() - interval '8 days') as history,
              (select count(*) from public.playlists p
                 where exists (select 1 from unnest(p.track_ids) id where not exists (select 1 from public.tracks t where t.id = id))) as dangling`,
    );
    expect(Number(counts[0]?.follows)).toBeGreaterThan(20);
    expect(Number(counts[0]?.likes)).toBeGreaterThan(0);
    expect(Number(counts[0]?.history)).toBeGreaterThan(0);
    expect(counts[0]?.dangling).toBe('0');
  });

  it('runs once: a second call does nothing', async () => {
    const again = await seedDemoCatalogue(test.db, store, {
      adminEmails: ADMINS,
      limit: 2,
      workers: 0,
    });
    expect(again).toMatchObject({ seeded: false, accounts: [] });
    const { rows } = await test.db.query<{ n: string }>('select count(*) as n from public.tracks');
    expect(rows[0]?.n).toBe('2');
  });
});

describe('seedDemoCatalogue on a database that is in use', () => {
  it(
    'does nothing when a user other than an admin exists',
    async () => {
      const test = await openTestDatabase();
      try {
        await createUser(test.db, { email: 'someone@example.test' });
        const result = await seedDemoCatalogue(test.db, openObjectStore('memory'), {
          adminEmails: ADMINS,
        });
        expect(result.seeded).toBe(false);
      } finally {
        await test.close();
      }
    },
    DATABASE_HOOK_TIMEOUT_MS,
  );
});
