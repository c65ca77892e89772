/**
 * The listen-through curve derived from hand-made served ranges (docs/insights.md): a whole
 * listen, a skip, a seek, a repeat, a listen whose reads went on after its play claimed them,
 * a file fetched whole in one read, and a download for offline use (no served audio: no listen).
 */
import { describe, expect, it } from 'vitest';
import { createTrack, createUser } from '../db/test-factories';
import { useTestDatabase } from '../db/use-test-database';

const t = useTestDatabase();

interface Listen {
  listener_id: string;
  from_start: boolean;
  through: number;
  seeks: string;
  seconds: number;
}

/** A served_audio row: byte ranges [a, b) of a 100 000-byte object, served from at to at + span s. */
async function served(
  listener: string,
  track: string,
  ranges: [number, number][],
  at: number,
  span: number,
  claimedAfter?: number,
): Promise<void> {
  const db = t.db;
  let event: string | null = null;
  if (claimedAfter !== undefined) {
    const { rows } = await db.query<{ id: string }>(
      `insert into public.play_events (listener_id, track_id, session_id, counted, played_at, created_at)
       values ($1, $2, gen_random_uuid()::text, true, $3::timestamptz, $3::timestamptz) returning id`,
      [listener, track, new Date(at + claimedAfter * 1000).toISOString()],
    );
    event = rows[0]!.id;
  }
  await db.query(
    `insert into public.served_audio (listener_id, track_id, object, object_size, bytes,
        first_served_at, last_served_at, claimed_at, claimed_by)
     values ($1, $2, 'renditions/x/standard.mp3', 100000,
             $3::int8multirange,
             $4::timestamptz, $5::timestamptz, $6::timestamptz, $7)`,
    [
      listener,
      track,
      `{${ranges.map(([a, b]) => `[${a},${b})`).join(',')}}`,
      new Date(at).toISOString(),
      new Date(at + span * 1000).toISOString(),
      event ? new Date(at + (claimedAfter ?? 0) * 1000).toISOString() : null,
      event,
    ],
  );
}

describe('the listen-through curve from served ranges', () => {
  it('derives each listen, then a curve whose first point is 100 % and never rises', async () => {
    const db = t.db;
    const artist = await createUser(db);
    const track = await createTrack(db, artist, { duration: 100 });
    const listeners = await Promise.all(Array.from({ length: 7 }, () => createUser(db)));
    const id = (i: number) => listeners[i]!.id;
    const T = Date.UTC(2026, 10, 2, 12, 0, 0);
    // 0: the whole track, read as it played (100 s of wall time).
    await served(id(0), track.id, [[0, 100_000]], T, 100);
    // 1: skipped after 20 s.
    await served(id(1), track.id, [[0, 20_000]], T, 20);
    // 2: 10 s from the start, then a seek to 50 s and 20 s there (35 s of wall time).
    await served(
      id(2),
      track.id,
      [
        [0, 10_000],
        [50_000, 70_000],
      ],
      T,
      35,
    );
    // 3: the whole file fetched at once (a browser's read-ahead), the play counted at 30 s;
    //    later a repeat from the start, 40 s of it.
    await served(id(3), track.id, [[0, 100_000]], T, 2, 30);
    await served(id(3), track.id, [[0, 40_000]], T + 200_000, 40);
    // 4: the whole file in one read and nothing else: the server can vouch for no time at all.
    await served(id(4), track.id, [[0, 100_000]], T, 0);
    // 5: the play claimed the first 35 s; the reads went on in a new row to 90 s.
    await served(id(5), track.id, [[0, 35_000]], T, 31, 31);
    await served(id(5), track.id, [[35_000, 90_000]], T + 31_000, 59);
    // 6: a download for offline use and an offline play: no served audio, so no listen here.
    await db.query(
      `insert into public.track_downloads (user_id, track_id, object, valid_until)
       values ($1, $2, 'renditions/x/standard.mp3', now() + interval '30 days')`,
      [id(6), track.id],
    );
    await db.query(
      `insert into public.play_events (listener_id, track_id, session_id, counted, offline, played_at, created_at)
       values ($1, $2, 'offline:1', true, true, $3, $3)`,
      [id(6), track.id, new Date(T).toISOString()],
    );

    const { rows } = await db.query<Listen>(
      `select listener_id, from_start, through, seeks::text as seeks, seconds
         from public.insights_listens($1::timestamptz, $2::timestamptz, $3)
        order by listener_id, through`,
      [new Date(T - 3600_000).toISOString(), new Date(T + 86_400_000).toISOString(), artist.id],
    );
    const of = (i: number) => rows.filter((r) => r.listener_id === id(i));
    expect(of(0)).toEqual([expect.objectContaining({ through: 100, seeks: '{}', seconds: 100 })]);
    expect(of(1)).toEqual([expect.objectContaining({ through: 20, seconds: 20 })]);
    expect(of(2)).toEqual([
      expect.objectContaining({ from_start: true, through: 10, seeks: '{[50,70)}', seconds: 30 }),
    ]);
    expect(of(3).map((r) => r.through)).toEqual([30, 40]);
    expect(of(4)).toEqual([expect.objectContaining({ through: 0, seconds: 0 })]);
    expect(of(5)).toEqual([expect.objectContaining({ through: 90, seeks: '{}', seconds: 90 })]);
    expect(of(6)).toEqual([]);

    // The day's figures: 7 listens (the repeat is one), reaching 0, 10, 20, 30, 40, 90 and 100 s.
    const day = await db.query<{
      listens: number;
      skips: number;
      reach: number[];
      seek_cover: number[];
    }>(
      `select listens, skips, reach, seek_cover
         from public.insights_compute($1::timestamptz, $2::timestamptz, $3) where track_id = $4`,
      [
        new Date(T - 3600_000).toISOString(),
        new Date(T + 86_400_000).toISOString(),
        artist.id,
        track.id,
      ],
    );
    const d = day.rows[0]!;
    expect(d.listens).toBe(7);
    // Under 29 s listened: 1 (20 s), 4 (0 s); 2 listened 30 s in all (10 + 20 after the seek).
    expect(d.skips).toBe(2);
    expect(d.reach).toHaveLength(101);
    const reached = d.reach.flatMap((n, r) => Array<number>(n).fill(r));
    expect(reached).toEqual([0, 10, 20, 30, 40, 90, 100]);
    expect(d.seek_cover.slice(50, 70)).toEqual(Array<number>(20).fill(1));
    expect(d.seek_cover[49]).toBe(0);
  });

  it('merges drops of fewer than 5 listens, starts at 100 % and never rises', async () => {
    // Reaches: 5 at 10 s, 3 at 20 s, 2 at 30 s, 10 at 60 s (of 60).
    const hist = Array<number>(61).fill(0);
    hist[10] = 5;
    hist[20] = 3;
    hist[30] = 2;
    hist[60] = 10;
    const seeks = Array<number>(61).fill(0);
    seeks[45] = 4;
    seeks[50] = 6;
    const { rows } = await t.db.query<{ c: { x: number; share: number; seek: number }[] }>(
      'select public.insights_curve($1::int[], $2::int[]) as c',
      [hist, seeks],
    );
    const c = rows[0]!.c;
    expect(c[0]).toEqual({ x: 0, share: 100, seek: 0 });
    for (let i = 1; i < c.length; i++) expect(c[i]!.share).toBeLessThanOrEqual(c[i - 1]!.share);
    expect(c[10]!.share).toBe(100); // still there at 10 s: their reach was 10 (seconds 0..9)
    expect(c[11]!.share).toBe(75); // 5 of 20 left
    // 3 at 20 s and 2 at 30 s are merged into one drop of 5 at 30 s: nothing moves at 21.
    expect(c[21]!.share).toBe(75);
    expect(c[31]!.share).toBe(50);
    expect(c[60]!.share).toBe(50);
    expect(c[45]!.seek).toBe(0); // 4 listens: fewer than 5, not shown
    expect(c[50]!.seek).toBe(30);
  });

  it('shows no curve for fewer than 5 listens', async () => {
    const { rows } = await t.db.query<{ c: unknown }>(
      `select public.insights_curve('{1,0,3}'::int[], '{}'::int[]) as c`,
    );
    expect(rows[0]!.c).toBeNull();
  });
});
