/**
 * DECISIONS.md's play rule through rpc increment_track_plays (docs/plays.md): counted only
 * against evidence the server holds (served_audio: enough audio, at a human pace), once per
 * listener, track and session; never the uploader; never a new account; at most
 * max_counted_plays_per_day() counted plays per listener and track and
 * max_counted_plays_per_listener_day() per listener per UTC day; each counted play credits the
 * uploader exactly 0.0021 EUR in the ledger, and the balance is always the ledger's sum. The
 * evidence is written here as the storage app leaves it (serveAudio); server/plays drives the
 * same rule through real signed-URL reads.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PAYOUT } from '../../src/lib/constants';
import { asRole, type JwtClaims } from '../../server/db/as-role';
import { sqlStateOf } from '../../server/db/test-attempt';
import { DATABASE_HOOK_TIMEOUT_MS, testDatabaseKind } from '../../server/db/test-database';
import { useTestDatabase } from '../../server/db/use-test-database';
import {
  claimsFor,
  createTrack,
  createUser,
  serveAudio,
  type TestUser,
} from '../../server/db/test-factories';

const test = useTestDatabase();
let dailyLimit: number;

beforeAll(async () => {
  const { rows } = await test.db.query<{ n: number }>(
    'select public.max_counted_plays_per_day() as n',
  );
  dailyLimit = rows[0]!.n;
}, DATABASE_HOOK_TIMEOUT_MS);
let uploader: TestUser;
let listener: TestUser;
let trackId: string;

beforeEach(async () => {
  uploader = await createUser(test.db, { established: true });
  listener = await createUser(test.db, { established: true });
  trackId = (await createTrack(test.db, uploader)).id;
});

/** One call; by default after the server served the whole track to the caller 2 minutes ago. */
async function play(
  claims: JwtClaims,
  args: { track: string; session?: string; playedAt?: string; served?: boolean },
): Promise<boolean> {
  if (args.served !== false && typeof claims.sub === 'string')
    await serveAudio(test.db, claims.sub, args.track);
  return asRole(test.db, claims, async (tx) => {
    const { rows } = await tx.query<{ counted: boolean }>(
      'select public.increment_track_plays(track_id => $1, session_id => $2, played_at => $3) as counted',
      [args.track, args.session ?? null, args.playedAt ?? null],
    );
    return rows[0]!.counted;
  });
}

async function state(track: string, user: TestUser) {
  const { rows } = await test.db.query<{
    plays: string;
    balance: string;
    ledger: string | null;
    entries: string;
    history: string;
  }>(
    `select t.plays, p.balance,
            (select sum(amount) from earnings_ledger l where l.user_id = p.id) as ledger,
            (select count(*) from earnings_ledger l where l.user_id = p.id) as entries,
            (select count(*) from listening_history h where h.track_id = t.id) as history
     from tracks t, profiles p where t.id = $1 and p.id = $2`,
    [track, user.id],
  );
  return rows[0]!;
}

async function refusals(listenerId: string, track: string): Promise<(string | null)[]> {
  const { rows } = await test.db.query<{ refusal: string | null }>(
    'select refusal from play_events where listener_id = $1 and track_id = $2 order by created_at, id',
    [listenerId, track],
  );
  return rows.map((r) => r.refusal);
}

describe(`increment_track_plays (${testDatabaseKind()})`, () => {
  it('counts a listen, writes history and credits the uploader 0.0021 EUR', async () => {
    expect(await play(listener.claims, { track: trackId, session: 's1' })).toBe(true);
    expect(await state(trackId, uploader)).toEqual({
      plays: '1',
      balance: '0.0021',
      ledger: '0.0021',
      entries: '1',
      history: '1',
    });
    const { rows } = await test.db.query(
      'select amount, kind, track_id, listener_id from earnings_ledger where user_id = $1',
      [uploader.id],
    );
    expect(rows).toEqual([
      { amount: PAYOUT.ratePerPlayEur, kind: 'play', track_id: trackId, listener_id: listener.id },
    ]);
    expect(await refusals(listener.id, trackId)).toEqual([null]);
  });

  it('counts nothing without audio served, and keeps the refusal (no history, no money)', async () => {
    expect(await play(listener.claims, { track: trackId, session: 'a', served: false })).toBe(
      false,
    );
    expect(await state(trackId, uploader)).toMatchObject({
      plays: '0',
      entries: '0',
      history: '0',
    });
    expect(await refusals(listener.id, trackId)).toEqual(['no_audio_served']);
  });

  it('counts nothing from too little audio, or audio served faster than it plays', async () => {
    // 10 % of a 180 s track = 18 s < 30 s.
    await serveAudio(test.db, listener.id, trackId, { fraction: 0.1 });
    expect(await play(listener.claims, { track: trackId, session: 'a', served: false })).toBe(
      false,
    );
    // The whole track, but its first byte went out 5 s ago: no 30 s listen yet.
    await serveAudio(test.db, listener.id, trackId, { secondsAgo: 5 });
    expect(await play(listener.claims, { track: trackId, session: 'b', served: false })).toBe(
      false,
    );
    // Evidence older than play_evidence_max_age() is not evidence.
    await serveAudio(test.db, listener.id, trackId, { secondsAgo: 2 * 86_400 });
    expect(await play(listener.claims, { track: trackId, session: 'c', served: false })).toBe(
      false,
    );
    expect(await refusals(listener.id, trackId)).toEqual([
      'not_enough_audio',
      'too_fast',
      'no_audio_served',
    ]);
    expect(await state(trackId, uploader)).toMatchObject({ plays: '0', entries: '0' });
  });

  it('uses the evidence up: a second call needs audio served anew', async () => {
    expect(await play(listener.claims, { track: trackId, session: 'a' })).toBe(true);
    expect(await play(listener.claims, { track: trackId, session: 'b', served: false })).toBe(
      false,
    );
    expect(await play(listener.claims, { track: trackId, session: 'c' })).toBe(true);
    expect(await refusals(listener.id, trackId)).toEqual([null, 'no_audio_served', null]);
  });

  it('judges the same session once (a retry changes nothing, even with new audio)', async () => {
    expect(await play(listener.claims, { track: trackId, session: 'same' })).toBe(true);
    expect(await play(listener.claims, { track: trackId, session: 'same' })).toBe(false);
    expect(await state(trackId, uploader)).toMatchObject({
      plays: '1',
      balance: '0.0021',
      history: '1',
    });
    expect(await refusals(listener.id, trackId)).toEqual([null]);
  });

  it("takes the session from the JWT's session_id when none is given (rpc('increment_track_plays', { track_id }))", async () => {
    const session = claimsFor(listener.id, listener.email, randomUUID());
    expect(await play(session, { track: trackId })).toBe(true);
    expect(await play(session, { track: trackId })).toBe(false);
    const nextSession = claimsFor(listener.id, listener.email, randomUUID());
    expect(await play(nextSession, { track: trackId })).toBe(true);
    const noSessionClaim: JwtClaims = { sub: listener.id, role: 'authenticated' };
    expect(await play(noSessionClaim, { track: trackId })).toBe(true);
    expect(await play(noSessionClaim, { track: trackId })).toBe(false); // then one per UTC day
  });

  it("never counts the uploader's own plays (kept as own_track, no history)", async () => {
    expect(await play(uploader.claims, { track: trackId, session: 's' })).toBe(false);
    expect(await state(trackId, uploader)).toEqual({
      plays: '0',
      balance: '0.0000',
      ledger: null,
      entries: '0',
      history: '0',
    });
    expect(await refusals(uploader.id, trackId)).toEqual(['own_track']);
  });

  it('a new account earns nothing yet: unconfirmed, or younger than new_account_age(), its listen is held', async () => {
    const fresh = await createUser(test.db);
    const unconfirmed = await createUser(test.db, { confirmed: false, established: true });
    expect(await play(fresh.claims, { track: trackId, session: 'a' })).toBe(false);
    expect(await play(unconfirmed.claims, { track: trackId, session: 'a' })).toBe(false);
    // Held, not refused (docs/plays.md 'Held plays'; released by server/plays/held-plays.ts).
    expect(await refusals(fresh.id, trackId)).toEqual([null]);
    expect(await refusals(unconfirmed.id, trackId)).toEqual([null]);
    const { rows } = await test.db.query<{ held: boolean }>(
      'select held from public.play_events where listener_id = any($1) and track_id = $2',
      [[fresh.id, unconfirmed.id], trackId],
    );
    expect(rows.map((r) => r.held)).toEqual([true, true]);
    // They listened: their history says so.
    expect(await state(trackId, uploader)).toMatchObject({
      plays: '0',
      entries: '0',
      history: '2',
    });
  });

  it('counts at most the daily limit per listener and track, still recording the listens', async () => {
    const results: boolean[] = [];
    for (let i = 0; i < dailyLimit + 3; i++)
      results.push(await play(listener.claims, { track: trackId, session: `s${i}` }));
    expect(results.filter(Boolean)).toHaveLength(dailyLimit);
    expect(results.slice(dailyLimit)).toEqual([false, false, false]);
    const s = await state(trackId, uploader);
    expect(s.plays).toBe(String(dailyLimit));
    expect(s.history).toBe(String(dailyLimit + 3));
    expect((await refusals(listener.id, trackId)).slice(dailyLimit)).toEqual([
      'daily_track_limit',
      'daily_track_limit',
      'daily_track_limit',
    ]);
    // Another listener has their own allowance.
    const second = await createUser(test.db, { established: true });
    expect(await play(second.claims, { track: trackId, session: 'x' })).toBe(true);
    // A backdated played_at is ignored: yesterday's allowance is not reachable online.
    const yesterday = new Date(Date.now() - 24 * 3600 * 1000).toISOString();
    expect(
      await play(listener.claims, { track: trackId, session: 'backdated', playedAt: yesterday }),
    ).toBe(false);
    const { rows } = await test.db.query<{ today: boolean }>(
      `select played_at > now() - interval '1 minute' as today from play_events
        where listener_id = $1 and session_id = 'backdated'`,
      [listener.id],
    );
    expect(rows).toEqual([{ today: true }]);
  });

  it('counts at most max_counted_plays_per_listener_day() per listener over all tracks', async () => {
    const { rows } = await test.db.query<{ n: number }>(
      'select public.max_counted_plays_per_listener_day() as n',
    );
    const limit = rows[0]!.n;
    // The day's earlier counted listens, of another track.
    const other = (await createTrack(test.db, uploader)).id;
    await test.db.query(
      `insert into play_events (listener_id, track_id, session_id, counted)
       select $1, $2, 'earlier-' || i, true from generate_series(1, $3) i`,
      [listener.id, other, limit],
    );
    expect(await play(listener.claims, { track: trackId, session: 'one-more' })).toBe(false);
    expect(await refusals(listener.id, trackId)).toEqual(['daily_listener_limit']);
  });

  it('keeps exact numeric money: balance = ledger sum = plays × 0.0021', async () => {
    const listeners = [
      listener,
      await createUser(test.db, { established: true }),
      await createUser(test.db, { established: true }),
    ];
    for (const l of listeners) {
      for (let i = 0; i < dailyLimit; i++)
        await play(l.claims, { track: trackId, session: `s${i}` });
    }
    const counted = listeners.length * dailyLimit;
    const s = await state(trackId, uploader);
    expect(s.plays).toBe(String(counted));
    expect(s.balance).toBe(s.ledger);
    const { rows } = await test.db.query<{ expected: string; equal: boolean }>(
      'select ($1::int * $2::numeric)::numeric(14,4)::text as expected, $3::numeric = $1::int * $2::numeric as equal',
      [counted, PAYOUT.ratePerPlayEur, s.balance],
    );
    expect(s.balance).toBe(rows[0]!.expected);
    expect(rows[0]!.equal).toBe(true);
  });

  it('a burst of concurrent calls (forged session ids) on one listen counts it once', async () => {
    await serveAudio(test.db, listener.id, trackId);
    const calls = Array.from({ length: dailyLimit + 5 }, (_, i) =>
      play(listener.claims, { track: trackId, session: `c${i}`, served: false }),
    );
    const results = await Promise.all(calls);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await state(trackId, uploader)).toMatchObject({ plays: '1', entries: '1' });
    const reasons = await refusals(listener.id, trackId);
    expect(reasons.filter((r) => r === 'no_audio_served')).toHaveLength(dailyLimit + 4);
  });

  it("never deadlocks when two listeners play each other's tracks at the same time", async () => {
    const otherTrack = (await createTrack(test.db, listener)).id;
    await serveAudio(test.db, listener.id, trackId);
    await serveAudio(test.db, uploader.id, otherTrack);
    const calls = Array.from({ length: 40 }, (_, i) => [
      play(listener.claims, { track: trackId, session: `mutual-a${i}`, served: false }),
      play(uploader.claims, { track: otherTrack, session: `mutual-b${i}`, served: false }),
    ]).flat();
    const results = await Promise.all(calls);
    expect(results.filter(Boolean)).toHaveLength(2);
  });

  it('refuses anonymous callers; an unknown track is a 404 (PT404)', async () => {
    await expect(play({ role: 'anon' }, { track: trackId, served: false })).rejects.toMatchObject({
      code: '42501',
    });
    const error = await play(listener.claims, { track: randomUUID(), served: false }).catch(
      (e: unknown) => e,
    );
    expect(sqlStateOf(error)).toBe('PT404');
  });
});
