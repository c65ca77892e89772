/**
 * A new account's listens are held, not lost (issue 34; docs/plays.md 'Held plays'): judged on
 * the real server as the player sends them, then decided by the release job
 * (`public.release_held_plays`, server/plays/held-plays.ts): counted and credited once the
 * account is an hour old with a confirmed e-mail, within the caps of the day they were played;
 * still held without confirmation; refused for good when the account is banned first.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_HOOK_TIMEOUT_MS, testDatabaseKind } from '../db/test-database';
import type { TestUser } from '../db/test-factories';
import { releaseHeldPlays } from './held-plays';
import { startPlaysHarness, type PlaysHarness } from './test-support';

let h: PlaysHarness;
let artist: TestUser;

beforeAll(async () => {
  h = await startPlaysHarness();
  artist = await h.newUser();
}, DATABASE_HOOK_TIMEOUT_MS);
afterAll(() => h?.close(), DATABASE_HOOK_TIMEOUT_MS);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A real listen of a 3-s track (the whole file fetched, its duration waited), then the call. */
async function listenAndSend(user: TestUser, track: { id: string; path: string }) {
  const res = await fetch(await h.signedUrl(user, track.path));
  expect(res.status).toBe(200);
  await res.arrayBuffer();
  await h.plays.settled();
  await sleep(3_000);
  return h.client(user).rpc('increment_track_plays', { track_id: track.id });
}

async function states(user: TestUser, trackId?: string) {
  const { rows } = await h.db.query<{ counted: boolean; held: boolean; refusal: string | null }>(
    `select counted, held, refusal from play_events
      where listener_id = $1 and ($2::uuid is null or track_id = $2) order by played_at, id`,
    [user.id, trackId ?? null],
  );
  return rows;
}

async function money(trackId: string) {
  const { rows } = await h.db.query<{ plays: number; entries: number }>(
    `select t.plays::int,
            (select count(*)::int from earnings_ledger l where l.track_id = t.id) as entries
       from tracks t where t.id = $1`,
    [trackId],
  );
  return rows[0]!;
}

/** The account passes the hour (its clock moved back, as time would). */
const age = (user: TestUser) =>
  h.db.query(`update auth.users set created_at = now() - interval '2 hours' where id = $1`, [
    user.id,
  ]);

/** Held rows of `user` for `trackId` played at `at`, as the judging functions leave them. */
async function insertHeld(user: TestUser, trackId: string, n: number, at = 'now()') {
  await h.db.query(
    `insert into play_events (listener_id, track_id, session_id, played_at, counted, held)
     select $1, $2, 'held-' || $3 || '-' || i, ${at} + make_interval(secs => i), false, true
       from generate_series(1, $4) i`,
    [user.id, trackId, randomUUID(), n],
  );
}

/** Runs the job until it has nothing left to decide (another test's rows included). */
async function releaseAll(): Promise<void> {
  while ((await releaseHeldPlays(h.db)) > 0);
}

describe(`held plays of new accounts (${testDatabaseKind()})`, { timeout: 60_000 }, () => {
  it('a new account’s listen is held, and counted and credited once it has passed the hour with a confirmed e-mail', async () => {
    const track = await h.newTrack(artist, 3);
    const fresh = await h.newUser({ established: false });
    const sent = await listenAndSend(fresh, track);
    expect(sent).toMatchObject({ data: false, error: null });
    expect(await states(fresh)).toEqual([{ counted: false, held: true, refusal: null }]);
    // The listener's history shows it (the server has its evidence).
    const history = await h.client(fresh).from('listening_history').select('track_id');
    expect(history.data).toEqual([{ track_id: track.id }]);
    // Within the hour the job leaves it held, and the artist has nothing yet.
    await releaseAll();
    expect(await states(fresh)).toEqual([{ counted: false, held: true, refusal: null }]);
    expect(await money(track.id)).toEqual({ plays: 0, entries: 0 });

    await age(fresh);
    await releaseAll();
    expect(await states(fresh)).toEqual([{ counted: true, held: false, refusal: null }]);
    expect(await money(track.id)).toEqual({ plays: 1, entries: 1 });
    // Released once: later passes change nothing.
    await releaseAll();
    expect(await money(track.id)).toEqual({ plays: 1, entries: 1 });
  });

  it('stays held while the e-mail is unconfirmed, however old the account, and is released at confirmation', async () => {
    const track = await h.newTrack(artist, 3);
    const unconfirmed = await h.newUser({ confirmed: false });
    expect((await listenAndSend(unconfirmed, track)).data).toBe(false);
    await releaseAll();
    expect(await states(unconfirmed)).toEqual([{ counted: false, held: true, refusal: null }]);
    expect(await money(track.id)).toEqual({ plays: 0, entries: 0 });

    await h.db.query('update auth.users set email_confirmed_at = now() where id = $1', [
      unconfirmed.id,
    ]);
    await releaseAll();
    expect(await states(unconfirmed)).toEqual([{ counted: true, held: false, refusal: null }]);
    expect(await money(track.id)).toEqual({ plays: 1, entries: 1 });
  });

  it('an offline listen of a new account is held and released the same way', async () => {
    const track = await h.newTrack(artist, 3);
    const fresh = await h.newUser({ plan: 'premium', established: false });
    const url = await h.signedUrl(fresh, track.path, true);
    await (await fetch(`${url}&device=phone`)).arrayBuffer();
    await h.plays.settled();
    await sleep(1_100);
    const sent = await h.client(fresh).rpc('record_offline_play', {
      track_id: track.id,
      played_at: new Date().toISOString(),
    });
    expect(sent).toMatchObject({ data: false, error: null });
    expect(await states(fresh)).toEqual([{ counted: false, held: true, refusal: null }]);
    await age(fresh);
    await releaseAll();
    expect(await states(fresh)).toEqual([{ counted: true, held: false, refusal: null }]);
    expect(await money(track.id)).toEqual({ plays: 1, entries: 1 });
  });

  it('a ban before the release refuses the held listens for good, also once lifted', async () => {
    const track = await h.newTrack(artist, 3);
    const fresh = await h.newUser({ established: false });
    expect((await listenAndSend(fresh, track)).data).toBe(false);
    const admin = await h.newUser();
    await h.db.query('insert into public.admin_emails (email) values ($1)', [admin.email]);
    await h.db.query('select public.refresh_admins(null)');
    const ban = await h.client(admin).rpc('admin_sanction_user', {
      p_user: fresh.id,
      p_kind: 'ban',
      p_reason: 'Fake listens',
    });
    expect(ban.error).toBeNull();
    expect(await states(fresh)).toEqual([{ counted: false, held: false, refusal: 'new_account' }]);
    const lifted = await h.client(admin).rpc('admin_lift_sanction', {
      p_sanction: (ban.data as { id: string }).id,
      p_reason: 'Appeal granted',
    });
    expect(lifted.error).toBeNull();
    await age(fresh);
    await releaseAll();
    expect(await states(fresh)).toEqual([{ counted: false, held: false, refusal: 'new_account' }]);
    expect(await money(track.id)).toEqual({ plays: 0, entries: 0 });
  });

  it('a ban through the auth admin API (banned_until) refuses them at the next release', async () => {
    const track = await h.newTrack(artist, 3);
    const fresh = await h.newUser({ established: false });
    await insertHeld(fresh, track.id, 2);
    await h.db.query(
      `update auth.users set banned_until = now() + interval '1 day',
                             created_at = now() - interval '2 hours' where id = $1`,
      [fresh.id],
    );
    await releaseAll();
    expect((await states(fresh)).map((s) => s.refusal)).toEqual(['new_account', 'new_account']);
    expect(await money(track.id)).toEqual({ plays: 0, entries: 0 });
  });

  it('the daily caps of the day played apply at release: per listener and track, and per listener', async () => {
    const track = await h.newTrack(artist, 3);
    const fresh = await h.newUser({ established: false });
    const { rows } = await h.db.query<{ track: number; listener: number }>(
      `select public.max_counted_plays_per_day() as track,
              public.max_counted_plays_per_listener_day() as listener`,
    );
    const caps = rows[0]!;
    // Yesterday (UTC): cap + 2 held listens of one track.
    const yesterday = `date_trunc('day', now() at time zone 'utc') at time zone 'utc' - interval '1 day' + interval '1 hour'`;
    await insertHeld(fresh, track.id, caps.track + 2, yesterday);
    await age(fresh);
    await releaseAll();
    const decided = await states(fresh, track.id);
    expect(decided.filter((s) => s.counted)).toHaveLength(caps.track);
    expect(decided.slice(caps.track).map((s) => s.refusal)).toEqual([
      'daily_track_limit',
      'daily_track_limit',
    ]);
    expect(await money(track.id)).toEqual({ plays: caps.track, entries: caps.track });

    // Per listener: a day already at the listener's cap leaves a held listen of another track
    // refused.
    const other = await h.newTrack(artist, 3);
    const busy = await h.newUser({ established: false });
    await h.db.query(
      `insert into play_events (listener_id, track_id, session_id, played_at, counted)
       select $1, $2, 'busy-' || i, now() - interval '1 minute', true
         from generate_series(1, $3) i`,
      [busy.id, track.id, caps.listener],
    );
    await insertHeld(busy, other.id, 1, `now() - interval '30 seconds'`);
    await age(busy);
    await releaseAll();
    expect(await states(busy, other.id)).toEqual([
      { counted: false, held: false, refusal: 'daily_listener_limit' },
    ]);
    expect(await money(other.id)).toEqual({ plays: 0, entries: 0 });
  });

  it('a listen of a track removed before the release stays held, and is credited once the track is restored', async () => {
    const track = await h.newTrack(artist, 3);
    const fresh = await h.newUser({ established: false });
    await insertHeld(fresh, track.id, 1);
    await age(fresh);
    await h.db.query(`update tracks set taken_down_at = now() where id = $1`, [track.id]);
    await releaseAll();
    expect(await states(fresh, track.id)).toEqual([{ counted: false, held: true, refusal: null }]);
    expect(await money(track.id)).toEqual({ plays: 0, entries: 0 });
    await h.db.query(`update tracks set taken_down_at = null where id = $1`, [track.id]);
    await releaseAll();
    expect(await states(fresh, track.id)).toEqual([{ counted: true, held: false, refusal: null }]);
    expect(await money(track.id)).toEqual({ plays: 1, entries: 1 });
  });

  it('two nodes releasing at once decide each held listen once', async () => {
    const track = await h.newTrack(artist, 3);
    const listeners = await Promise.all([0, 1, 2].map(() => h.newUser({ established: false })));
    for (const l of listeners) await insertHeld(l, track.id, 3);
    for (const l of listeners) await age(l);
    const decided = await Promise.all([
      releaseHeldPlays(h.db, 4),
      releaseHeldPlays(h.db, 4),
      releaseHeldPlays(h.db, 4),
    ]);
    await releaseAll();
    expect(decided.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(9);
    for (const l of listeners)
      expect((await states(l)).map((s) => s.counted)).toEqual([true, true, true]);
    expect(await money(track.id)).toEqual({ plays: 9, entries: 9 });
  });

  it('the fraud view does not count held listens as refused', async () => {
    const track = await h.newTrack(artist, 3);
    const fresh = await h.newUser({ established: false });
    await insertHeld(fresh, track.id, 2);
    const admin = await h.newUser();
    await h.db.query('insert into public.admin_emails (email) values ($1)', [admin.email]);
    await h.db.query('select public.refresh_admins(null)');
    const listeners = await h.client(admin).rpc('admin_refused_listeners', { p_limit: 1000 });
    expect(listeners.error).toBeNull();
    expect((listeners.data as { listener_id: string }[]).map((r) => r.listener_id)).not.toContain(
      fresh.id,
    );
  });
});
