/**
 * DECISIONS.md's play rule through rpc increment_track_plays: once per listener, track and
 * session; never the uploader; at most max_counted_plays_per_day() counted plays per listener and
 * track per UTC day; each counted play credits the uploader exactly 0.0021 EUR in the ledger, and
 * the balance is always the ledger's sum.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PAYOUT } from '../../src/lib/constants';
import { asRole, type JwtClaims } from '../../server/db/as-role';
import { sqlStateOf } from '../../server/db/test-attempt';
import { DATABASE_HOOK_TIMEOUT_MS, testDatabaseKind } from '../../server/db/test-database';
import { useTestDatabase } from '../../server/db/use-test-database';
import { claimsFor, createTrack, createUser, type TestUser } from '../../server/db/test-factories';

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
  uploader = await createUser(test.db);
  listener = await createUser(test.db);
  trackId = (await createTrack(test.db, uploader)).id;
});

function play(
  claims: JwtClaims,
  args: { track: string; session?: string; playedAt?: string },
): Promise<boolean> {
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
  });

  it('counts the same session once', async () => {
    expect(await play(listener.claims, { track: trackId, session: 'same' })).toBe(true);
    expect(await play(listener.claims, { track: trackId, session: 'same' })).toBe(false);
    expect(await state(trackId, uploader)).toMatchObject({
      plays: '1',
      balance: '0.0021',
      history: '1',
    });
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

  it("never counts the uploader's own plays", async () => {
    expect(await play(uploader.claims, { track: trackId, session: 's' })).toBe(false);
    expect(await state(trackId, uploader)).toEqual({
      plays: '0',
      balance: '0.0000',
      ledger: null,
      entries: '0',
      history: '0',
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
    // Another listener has their own allowance; yesterday's (offline) listens have theirs.
    const second = await createUser(test.db);
    expect(await play(second.claims, { track: trackId, session: 'x' })).toBe(true);
    const yesterday = new Date(Date.now() - 24 * 3600 * 1000).toISOString();
    expect(
      await play(listener.claims, { track: trackId, session: 'offline-1', playedAt: yesterday }),
    ).toBe(true);
  });

  it('keeps exact numeric money: balance = ledger sum = plays × 0.0021', async () => {
    const listeners = [listener, await createUser(test.db), await createUser(test.db)];
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

  it('serialises concurrent calls: the daily bound holds under concurrency', async () => {
    const calls = Array.from({ length: dailyLimit + 5 }, (_, i) =>
      play(listener.claims, { track: trackId, session: `c${i}` }),
    );
    const results = await Promise.all(calls);
    expect(results.filter(Boolean)).toHaveLength(dailyLimit);
    expect(await state(trackId, uploader)).toMatchObject({
      plays: String(dailyLimit),
      entries: String(dailyLimit),
    });
  });

  it("never deadlocks when two listeners play each other's tracks at the same time", async () => {
    const otherTrack = (await createTrack(test.db, listener)).id;
    const calls = Array.from({ length: 40 }, (_, i) => [
      play(listener.claims, { track: trackId, session: `mutual-a${i}` }),
      play(uploader.claims, { track: otherTrack, session: `mutual-b${i}` }),
    ]).flat();
    const results = await Promise.all(calls);
    expect(results.filter(Boolean)).toHaveLength(2 * Math.min(40, dailyLimit));
  });

  it('refuses anonymous callers and unknown tracks', async () => {
    await expect(play({ role: 'anon' }, { track: trackId })).rejects.toMatchObject({
      code: '42501',
    });
    const error = await play(listener.claims, { track: randomUUID() }).catch((e: unknown) => e);
    expect(sqlStateOf(error)).toBe('P0002');
  });
});
