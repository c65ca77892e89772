/**
 * Plays and money as an outsider attacks them (docs/plays.md, docs/payouts.md): a listener
 * cannot count more plays than the rule allows (no audio, audio claimed once, a few bytes,
 * the daily bound, parallel calls, the outbox, offline plays without a download), an uploader's
 * own plays never count, and every balance stays its ledger's sum while plays and withdrawals
 * (and an admin's rejections) run concurrently. The audio is fetched through signed URLs as the
 * player does; the storage app records what it served.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { createUser, type TestUser } from '../../server/db/test-factories';
import { makeWav, synthSignal } from '../../server/processing/test-fixtures';
import { json, send, verify, verifyClientError, type Exchange } from './support/http';
import { ADMIN_EMAIL, startTarget, type Target } from './support/target';

let t: Target;
let artist: TestUser;
let admin: TestUser;

beforeAll(async () => {
  t = await startTarget();
  artist = await createUser(t.db, { established: true });
  admin = await createUser(t.db, { email: ADMIN_EMAIL, established: true });
  await t.db.query('select public.sync_admin_emails($1::text[])', [[ADMIN_EMAIL]]);
});
afterAll(async () => {
  await t?.close();
});

/** A ready 2-second track (a WAV original) of `uploader`, uploaded through storage. */
async function newTrack(uploader: TestUser): Promise<{ id: string; path: string }> {
  const path = `${uploader.id}/${randomUUID()}.wav`;
  const wav = makeWav(synthSignal(2, { sampleRate: 8000, channels: 1 }));
  const up = await t.request('POST', `/storage/v1/object/tracks/${path}`, {
    as: uploader,
    body: new Uint8Array(wav),
    headers: { 'Content-Type': 'audio/wav' },
  });
  verify(up.status === 200, 'upload', up);
  const { rows } = await t.db.query<{ id: string }>(
    `insert into public.tracks (title, artist, duration, audio_url, uploaded_by, status)
     values ('Track', 'Artist', 2, $1, $2, 'ready') returning id`,
    [`tracks/${path}`, uploader.id],
  );
  return { id: rows[0]!.id, path };
}

/** Signs and fetches the track's audio as `who` (the whole file, or a range). */
async function fetchAudio(who: TestUser, path: string, range?: string): Promise<Exchange> {
  const signed = await t.request('POST', `/storage/v1/object/sign/tracks/${path}`, {
    as: who,
    body: JSON.stringify({ expiresIn: 600 }),
  });
  verify(signed.status === 200, 'sign', signed);
  const url = new URL(`${t.url}/storage/v1${json<{ signedURL: string }>(signed).signedURL}`);
  const x = await send('GET', url.toString(), { headers: range ? { Range: range } : {} });
  verify(x.status === 200 || x.status === 206, 'fetch audio', x);
  await t.backend.plays.settled();
  return x;
}

const play = (who: TestUser, trackId: string, session = randomUUID()) =>
  t.request('POST', '/rest/v1/rpc/increment_track_plays', {
    as: who,
    body: JSON.stringify({ track_id: trackId, session_id: session }),
  });

const counted = (x: Exchange) => x.status === 200 && x.body.trim() === 'true';

async function trackState(trackId: string) {
  const { rows } = await t.db.query<{ plays: number; events: number; ledger: string }>(
    `select t.plays::int as plays,
            (select count(*)::int from public.play_events e where e.track_id = t.id and e.counted) as events,
            (select coalesce(sum(amount), 0)::text from public.earnings_ledger l where l.track_id = t.id and l.kind = 'play') as ledger
     from public.tracks t where t.id = $1`,
    [trackId],
  );
  return rows[0]!;
}

/** Every profile's balance is its ledger's sum and never negative. */
async function ledgerMismatches(): Promise<string[]> {
  const { rows } = await t.db.query<{ id: string; balance: string; ledger: string }>(
    `select p.id, p.balance::text as balance,
            coalesce((select sum(amount) from public.earnings_ledger l where l.user_id = p.id), 0)::text as ledger
     from public.profiles p
     where p.balance <> coalesce((select sum(amount) from public.earnings_ledger l where l.user_id = p.id), 0)
        or p.balance < 0 or p.balance = 'NaN'`,
  );
  return rows.map((r) => `${r.id}: balance ${r.balance}, ledger ${r.ledger}`);
}

describe('a listener cannot inflate plays', () => {
  it('without audio, with audio claimed once, with a few bytes, in parallel, past the daily bound', async () => {
    const listener = await createUser(t.db, { established: true });
    const track = await newTrack(artist);
    const answers: Exchange[] = [];
    // 1. No audio served: nothing counts, however many sessions.
    for (let i = 0; i < 5; i++) answers.push(await play(listener, track.id));
    verify(
      answers.every((x) => !counted(x)),
      'a play without audio counted',
      ...answers.filter(counted),
    );
    // 2. A few bytes: not enough audio.
    await fetchAudio(listener, track.path, 'bytes=0-99');
    const few = await play(listener, track.id);
    verify(!counted(few), 'a play of 100 bytes counted', few);
    // 3. One whole fetch, 20 parallel calls with 20 sessions: the evidence is claimed once.
    await fetchAudio(listener, track.path);
    const parallel = await Promise.all(Array.from({ length: 20 }, () => play(listener, track.id)));
    for (const x of parallel) verifyClientError(x, 'parallel play');
    const n = parallel.filter(counted).length;
    verify(n === 1, `one fetch counted ${n} plays`, ...parallel.filter(counted));
    // 4. Fetch-and-play in a loop: the daily bound per listener and track (10) holds.
    const { rows } = await t.db.query<{ n: number }>(
      'select public.max_counted_plays_per_day() as n',
    );
    const bound = Number(rows[0]!.n);
    for (let i = 0; i < bound + 3; i++) {
      await fetchAudio(listener, track.path);
      verifyClientError(await play(listener, track.id), 'loop play');
    }
    const s = await trackState(track.id);
    verify(
      s.plays === bound,
      `the track has ${s.plays} plays from one listener in a day (bound ${bound})`,
    );
    verify(s.events === s.plays, `plays ${s.plays} but ${s.events} counted events`);
    verify(
      Number(s.ledger) === Number((s.plays * 0.0021).toFixed(4)),
      `ledger ${s.ledger} for ${s.plays} plays`,
    );
  });

  it('through the outbox and offline plays the same rule holds', async () => {
    const listener = await createUser(t.db, { established: true });
    const track = await newTrack(artist);
    const mutations = Array.from({ length: 12 }, () => ({
      id: randomUUID(),
      op: 'play.record',
      args: { track_id: track.id, session_id: randomUUID(), played_at: new Date().toISOString() },
    }));
    const outbox = await t.request('POST', '/rest/v1/rpc/apply_mutations', {
      as: listener,
      body: JSON.stringify({ p_client_id: 'attack', p_mutations: mutations }),
    });
    verifyClientError(outbox, 'apply_mutations');
    const offline = [];
    for (const playedAt of [
      new Date().toISOString(),
      '2999-01-01T00:00:00Z',
      new Date(Date.now() - 3600_000).toISOString(),
    ])
      offline.push(
        await t.request('POST', '/rest/v1/rpc/record_offline_play', {
          as: listener,
          body: JSON.stringify({
            track_id: track.id,
            played_at: playedAt,
            session_id: randomUUID(),
          }),
        }),
      );
    verify(
      offline.every((x) => !counted(x)),
      'an offline play without a download counted',
      ...offline,
    );
    const s = await trackState(track.id);
    verify(
      s.plays === 0,
      `${s.plays} plays without any audio served (outbox and offline)`,
      outbox,
      ...offline,
    );
  });

  it("an uploader's own plays never count, whatever the path", async () => {
    const track = await newTrack(artist);
    const before = await trackState(track.id);
    for (let i = 0; i < 3; i++) {
      await fetchAudio(artist, track.path);
      verify(!counted(await play(artist, track.id)), "the uploader's own play counted");
    }
    await fetchAudio(artist, track.path, 'bytes=0-');
    const outbox = await t.request('POST', '/rest/v1/rpc/apply_mutations', {
      as: artist,
      body: JSON.stringify({
        p_client_id: 'self',
        p_mutations: [
          {
            id: randomUUID(),
            op: 'play.record',
            args: { track_id: track.id, session_id: randomUUID() },
          },
        ],
      }),
    });
    verifyClientError(outbox, 'own outbox play');
    const offline = await t.request('POST', '/rest/v1/rpc/record_offline_play', {
      as: artist,
      body: JSON.stringify({ track_id: track.id, played_at: new Date().toISOString() }),
    });
    verify(!counted(offline), "the uploader's own offline play counted", offline);
    const after = await trackState(track.id);
    verify(
      JSON.stringify(after) === JSON.stringify(before),
      `the uploader's plays moved ${JSON.stringify(before)} → ${JSON.stringify(after)}`,
    );
  });
});

describe("a new account's held plays (docs/plays.md 'Held plays')", () => {
  it('are counted neither early nor past the bounds at release, and a ban refuses them', async () => {
    const fresh = await createUser(t.db); // created now: inside its first hour
    const track = await newTrack(artist);
    const { rows } = await t.db.query<{ n: number }>(
      'select public.max_counted_plays_per_day() as n',
    );
    const bound = Number(rows[0]!.n);
    for (let i = 0; i < bound + 3; i++) {
      await fetchAudio(fresh, track.path);
      const x = await play(fresh, track.id);
      verifyClientError(x, 'held play');
      verify(!counted(x), "a new account's play counted inside its first hour", x);
    }
    // The release is the server's job, not an RPC; the account's age and confirmation live in
    // the auth schema, which the API does not expose.
    const early = await t.request('POST', '/rest/v1/rpc/release_held_plays', {
      as: fresh,
      body: JSON.stringify({ p_limit: 1000 }),
    });
    verify(early.status >= 400 && early.status < 500, 'release_held_plays as the listener', early);
    const moved = await t.request('PATCH', `/rest/v1/play_events?listener_id=eq.${fresh.id}`, {
      as: fresh,
      body: JSON.stringify({ held: false, counted: true }),
    });
    verify(
      moved.status >= 400 || moved.body.trim() === '[]' || moved.body.trim() === '',
      'held rows written by the listener',
      moved,
    );
    const held = await t.db.query<{ n: number }>(
      'select count(*)::int as n from public.play_events where listener_id = $1 and held',
      [fresh.id],
    );
    verify(held.rows[0]!.n === bound + 3, `${held.rows[0]!.n} held plays of ${bound + 3}`);
    await t.db.query('select public.release_held_plays(10000)');
    let s = await trackState(track.id);
    verify(
      s.plays === 0 && Number(s.ledger) === 0,
      `held plays earned inside the hour: ${JSON.stringify(s)}`,
    );

    // Past the hour: counted up to the daily bound, the ledger matching.
    await t.db.query(
      `update auth.users set created_at = now() - interval '2 hours' where id = $1`,
      [fresh.id],
    );
    await t.db.query('select public.release_held_plays(10000)');
    s = await trackState(track.id);
    verify(
      s.plays === bound,
      `${s.plays} plays released for one listener and day (bound ${bound})`,
    );
    verify(s.events === s.plays, `plays ${s.plays} but ${s.events} counted events`);
    verify(
      Number(s.ledger) === Number((s.plays * 0.0021).toFixed(4)),
      `ledger ${s.ledger} for ${s.plays} plays`,
    );
    verify((await ledgerMismatches()).length === 0, 'a balance is not its ledger’s sum');

    // Banned before the hour: refused for good.
    const banned = await createUser(t.db);
    const other = await newTrack(artist);
    await fetchAudio(banned, other.path);
    verifyClientError(await play(banned, other.id), 'held play');
    const ban = await t.request('POST', '/rest/v1/rpc/admin_sanction_user', {
      as: admin,
      body: JSON.stringify({ p_user: banned.id, p_kind: 'ban', p_reason: 'Fake plays' }),
    });
    verify(ban.status === 200, 'ban', ban);
    await t.db.query(
      `update auth.users set created_at = now() - interval '2 hours' where id = $1`,
      [banned.id],
    );
    await t.db.query('select public.release_held_plays(10000)');
    const o = await trackState(other.id);
    verify(
      o.plays === 0 && Number(o.ledger) === 0,
      `a banned account's held play earned: ${JSON.stringify(o)}`,
    );
  });
});

describe('money', () => {
  it('balances stay the ledger’s sum under concurrent plays, withdrawals and rejections', async () => {
    const earner = await createUser(t.db, { established: true });
    await t.db.query(`select public.post_ledger_entry($1, 10.02, 'play')`, [earner.id]);
    const tracks = [await newTrack(earner), await newTrack(earner)];
    const listeners = await Promise.all(
      Array.from({ length: 6 }, () => createUser(t.db, { established: true })),
    );
    const withdraw = () =>
      t.request('POST', '/rest/v1/rpc/request_withdrawal', {
        as: earner,
        body: JSON.stringify({ amount: 5, method: 'paypal', details: 'earner@example.test' }),
      });
    const rejectPending = async () => {
      const { rows } = await t.db.query<{ id: string }>(
        `select id from public.withdrawals where user_id = $1 and status = 'pending' limit 1`,
        [earner.id],
      );
      if (!rows[0]) return null;
      return t.request('POST', '/rest/v1/rpc/process_withdrawal', {
        as: admin,
        body: JSON.stringify({ withdrawal_id: rows[0].id, status: 'rejected' }),
      });
    };
    const jobs: Promise<Exchange | null>[] = [];
    for (const l of listeners)
      for (const tr of tracks) jobs.push(fetchAudio(l, tr.path).then(() => play(l, tr.id)));
    for (let i = 0; i < 6; i++) jobs.push(withdraw());
    for (let i = 0; i < 2; i++)
      jobs.push(new Promise((r) => setTimeout(r, 50 * i)).then(rejectPending));
    const answers = (await Promise.all(jobs)).filter((x): x is Exchange => x !== null);
    for (const x of answers) verifyClientError(x, 'concurrent money');
    const mismatches = await ledgerMismatches();
    verify(
      mismatches.length === 0,
      `balances are not their ledger's sum:\n${mismatches.join('\n')}`,
    );
    const { rows } = await t.db.query<{ out: string; credited: string; balance: string }>(
      `select coalesce(sum(amount) filter (where status in ('pending', 'completed')), 0)::text as out,
              (select coalesce(sum(amount), 0)::text from public.earnings_ledger where user_id = $1 and kind = 'play') as credited,
              (select balance::text from public.profiles where id = $1) as balance
       from public.withdrawals where user_id = $1`,
      [earner.id],
    );
    const m = rows[0]!;
    // In ten-thousandths of a euro (numeric(12,4)): exact integers, no float rounding.
    const units = (v: string | number) => Math.round(Number(v) * 10_000);
    verify(
      units(m.out) + units(m.balance) === units(m.credited) && units(m.out) <= units(m.credited),
      `withdrawn ${m.out} + balance ${m.balance} ≠ credited ${m.credited}`,
    );
    const plays = tracks.length * listeners.length;
    verify(
      units(m.credited) === units(10.02) + plays * 21,
      `credited ${m.credited} for ${plays} plays`,
    );
  });
});
