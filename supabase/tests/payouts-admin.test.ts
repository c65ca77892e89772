/**
 * Issue 16's server rules: withdrawals under concurrency, processing once, bank details checked
 * by the database, admin-only reads and actions, reports and takedowns, the audit log, and the
 * artist's earnings read.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { asRole, type JwtClaims } from '../../server/db/as-role';
import { attempt } from '../../server/db/test-attempt';
import { DATABASE_HOOK_TIMEOUT_MS, testDatabaseKind } from '../../server/db/test-database';
import { useTestDatabase } from '../../server/db/use-test-database';
import {
  createAdmin,
  createTrack,
  createUser,
  serveAudio,
  createUserWithBalance,
  type TestUser,
} from '../../server/db/test-factories';

const test = useTestDatabase();
let admin: TestUser;
let admin2: TestUser;
beforeAll(async () => {
  admin = await createAdmin(test.db);
  admin2 = await createAdmin(test.db);
}, DATABASE_HOOK_TIMEOUT_MS);

const ANON: JwtClaims = { role: 'anon' };

const userWithBalance = (amount: string) => createUserWithBalance(test.db, amount);

function call<T extends Record<string, unknown>>(
  claims: JwtClaims,
  sql: string,
  params: unknown[] = [],
): Promise<T[]> {
  return asRole(test.db, claims, async (tx) => (await tx.query<T>(sql, params)).rows);
}

const request = (user: TestUser, amount: string, method = 'paypal', details = 'me@example.test') =>
  call<{ id: string; status: string }>(
    user.claims,
    'select * from public.request_withdrawal(amount => $1::numeric, method => $2, details => $3)',
    [amount, method, details],
  ).then((rows) => rows[0]!);

const processAs = (claims: JwtClaims, id: string, status: string) =>
  call(claims, 'select * from public.process_withdrawal($1, $2)', [id, status]);

async function money(user: TestUser) {
  const { rows } = await test.db.query<{ balance: string; ledger: string }>(
    `select balance, (select coalesce(sum(amount), 0) from earnings_ledger where user_id = $1)::numeric(12,4)::text as ledger
       from profiles where id = $1`,
    [user.id],
  );
  return rows[0]!;
}

const bank = (iban: string, swift = 'COBADEFFXXX') =>
  JSON.stringify({ accountName: 'Ada Artist', iban, swift });

describe(`withdrawals under load (${testDatabaseKind()})`, () => {
  it('20 concurrent requests from one balance never overdraw it', async () => {
    const artist = await userWithBalance('52.00');
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () => request(artist, '5.00')),
    );
    const ok = results.filter((r) => r.status === 'fulfilled');
    expect(ok).toHaveLength(10);
    for (const r of results) {
      if (r.status === 'rejected') {
        expect(String(r.reason)).toMatch(
          /Minimum withdrawal amount is 5 EUR\.|Insufficient balance\./,
        );
      }
    }
    expect(await money(artist)).toEqual({ balance: '2.0000', ledger: '2.0000' });
    const { rows } = await test.db.query<{ n: string }>(
      `select count(*)::text as n from withdrawals where user_id = $1`,
      [artist.id],
    );
    expect(rows[0]!.n).toBe('10');
  });

  it('two admins processing one request at once change the money once', async () => {
    const artist = await userWithBalance('20');
    const w = await request(artist, '12.34');
    const results = await Promise.allSettled([
      processAs(admin.claims, w.id, 'rejected'),
      processAs(admin2.claims, w.id, 'rejected'),
      processAs(admin.claims, w.id, 'completed'),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results.filter((x) => x.status === 'rejected')) {
      expect(String((r as PromiseRejectedResult).reason)).toContain(
        'This withdrawal has already been processed.',
      );
    }
    const { rows } = await test.db.query<{ status: string }>(
      'select status from withdrawals where id = $1',
      [w.id],
    );
    const status = rows[0]!.status;
    expect(await money(artist)).toEqual(
      status === 'rejected'
        ? { balance: '20.0000', ledger: '20.0000' }
        : { balance: '7.6600', ledger: '7.6600' },
    );
    const reversals = await test.db.query(
      `select 1 from earnings_ledger where withdrawal_id = $1 and kind = 'withdrawal_reversal'`,
      [w.id],
    );
    expect(reversals.rows).toHaveLength(status === 'rejected' ? 1 : 0);
  });

  it('a rejection restores the exact amount', async () => {
    const artist = await userWithBalance('10.0021');
    const w = await request(artist, '9.99');
    expect(await money(artist)).toEqual({ balance: '0.0121', ledger: '0.0121' });
    await processAs(admin.claims, w.id, 'rejected');
    expect(await money(artist)).toEqual({ balance: '10.0021', ledger: '10.0021' });
    await expect(processAs(admin.claims, w.id, 'completed')).rejects.toThrow(
      'This withdrawal has already been processed.',
    );
  });

  it('refuses a bank IBAN with a wrong checksum and a malformed SWIFT/BIC', async () => {
    const artist = await userWithBalance('30');
    await expect(request(artist, '5', 'bank', bank('DE89370400440532013001'))).rejects.toThrow(
      'Please enter a valid IBAN.',
    );
    await expect(
      request(artist, '5', 'bank', bank('DE89 3704 0044 0532 0130 00', 'COBA')),
    ).rejects.toThrow('Please enter a valid SWIFT/BIC code.');
    const ok = await request(artist, '5', 'bank', bank('gb82 west 1234 5698 7654 32', 'NWBKGB2L'));
    expect(ok.status).toBe('pending');
    expect(await money(artist)).toEqual({ balance: '25.0000', ledger: '25.0000' });
  });

  it('checks IBANs like ISO 13616 (known valid and invalid numbers)', async () => {
    const { rows } = await test.db.query<Record<string, boolean>>(
      `select public.is_valid_iban('FR1420041010050500013M02606') as fr,
              public.is_valid_iban('NL91ABNA0417164300') as nl,
              public.is_valid_iban('NL91ABNA0417164301') as nl_bad,
              public.is_valid_iban('XX') as short,
              public.is_valid_bic('DEUTDEFF500') as bic11,
              public.is_valid_bic('DEUT-DEFF') as bic_bad`,
    );
    expect(rows[0]).toEqual({
      fr: true,
      nl: true,
      nl_bad: false,
      short: false,
      bic11: true,
      bic_bad: false,
    });
  });
});

describe(`admin-only reads and actions (${testDatabaseKind()})`, () => {
  it('refuses the admin functions to anyone but an admin', async () => {
    const user = await createUser(test.db);
    for (const sql of [
      'select public.admin_stats()',
      'select * from public.admin_artists(9, 0)',
      `select * from public.resolve_track_report('00000000-0000-0000-0000-000000000000', 'dismiss')`,
    ]) {
      expect(await attempt(test.db, ANON, sql)).toBe('denied');
      expect(await attempt(test.db, user.claims, sql)).toBe('denied');
    }
    expect(await attempt(test.db, admin.claims, 'select public.admin_stats()')).toBe('ok');
  });

  it('counts the stat cards on the server', async () => {
    const uploader = await createUser(test.db);
    await createTrack(test.db, uploader);
    const before = (
      await call<{ s: Record<string, number | string> }>(
        admin.claims,
        'select public.admin_stats() as s',
      )
    )[0]!.s;
    await createTrack(test.db, uploader);
    const rich = await userWithBalance('9');
    await request(rich, '6.50');
    const after = (
      await call<{ s: Record<string, number | string> }>(
        admin.claims,
        'select public.admin_stats() as s',
      )
    )[0]!.s;
    expect(Number(after.tracks) - Number(before.tracks)).toBe(1);
    expect(Number(after.pending_review) - Number(before.pending_review)).toBe(1);
    expect(Number(after.pending_withdrawals) - Number(before.pending_withdrawals)).toBe(1);
    expect(
      Number(after.pending_withdrawals_sum) - Number(before.pending_withdrawals_sum),
    ).toBeCloseTo(6.5, 10);
    const artists = await call<{
      id: string;
      email: string;
      track_count: string;
      total_count: string;
    }>(admin.claims, 'select * from public.admin_artists(100, 0)');
    const row = artists.find((a) => a.id === uploader.id);
    expect(row).toMatchObject({ email: uploader.email, track_count: '2' });
    expect(Number(artists[0]!.total_count)).toBe(artists.length);
  });

  it('lets only admins read the audit log and nobody write it', async () => {
    const user = await createUser(test.db);
    const sql = 'select * from admin_audit_log';
    expect(await attempt(test.db, ANON, sql)).toBe('denied');
    expect(await attempt(test.db, user.claims, sql)).toBe('hidden');
    const write = `insert into admin_audit_log (action, target_table, target_id) values ('x', 'y', 'z')`;
    for (const c of [ANON, user.claims, admin.claims])
      expect(await attempt(test.db, c, write)).toBe('denied');
    expect(await attempt(test.db, admin.claims, 'delete from admin_audit_log')).toBe('denied');
  });

  it('logs every admin action with who, what, before and after', async () => {
    const uploader = await createUser(test.db);
    const track = await createTrack(test.db, uploader);
    const doomed = await createTrack(test.db, uploader, { title: 'Doomed' });
    await call(admin.claims, 'update tracks set verified = true where id = $1', [track.id]);
    await call(admin.claims, 'update tracks set verified = false where id = $1', [track.id]);
    await call(admin.claims, 'delete from tracks where id = $1', [doomed.id]);
    const artist = await userWithBalance('8');
    const w = await request(artist, '5');
    await processAs(admin.claims, w.id, 'completed');
    // The uploader's own edits are not admin actions.
    await call(uploader.claims, `update tracks set title = 'Renamed' where id = $1`, [track.id]);

    const log = await call<{
      actor_id: string;
      action: string;
      target_id: string;
      before: unknown;
      after: unknown;
    }>(
      admin.claims,
      `select actor_id, action, target_id, before, after from admin_audit_log
        where target_id = any($1::text[]) order by id`,
      [[track.id, doomed.id, w.id]],
    );
    expect(log.map((e) => [e.action, e.target_id, e.actor_id])).toEqual([
      ['track.approve', track.id, admin.id],
      ['track.mark_pending', track.id, admin.id],
      ['track.delete', doomed.id, admin.id],
      ['withdrawal.complete', w.id, admin.id],
    ]);
    expect(log[0]).toMatchObject({ before: { verified: false }, after: { verified: true } });
    expect(log[2]!.before).toMatchObject({ title: 'Doomed', uploaded_by: uploader.id });
    expect(log[3]).toMatchObject({ before: { status: 'pending' }, after: { status: 'completed' } });
  });
});

describe(`reports and takedowns (${testDatabaseKind()})`, () => {
  const report = (user: TestUser, trackId: string, reason = 'copyright', note = 'My song') =>
    call<{ id: string; status: string }>(
      user.claims,
      'insert into track_reports (track_id, reason, note) values ($1, $2, $3) returning id, status',
      [trackId, reason, note],
    ).then((r) => r[0]!);
  const resolve = (claims: JwtClaims, id: string, action: string, reason?: string) =>
    call<{ status: string }>(claims, 'select * from public.resolve_track_report($1, $2, $3)', [
      id,
      action,
      reason ?? null,
    ]).then((r) => r[0]!);

  it('lets a listener report as themselves, only admins read all reports', async () => {
    const uploader = await createUser(test.db);
    const listener = await createUser(test.db);
    const other = await createUser(test.db);
    const track = await createTrack(test.db, uploader);
    const r = await report(listener, track.id, 'spam', '');
    expect(r.status).toBe('open');
    const byId: [string, unknown[]] = ['select * from track_reports where id = $1', [r.id]];
    expect(await attempt(test.db, ANON, ...byId)).toBe('denied');
    expect(await attempt(test.db, listener.claims, ...byId)).toBe('ok');
    expect(await attempt(test.db, other.claims, ...byId)).toBe('hidden');
    expect(await attempt(test.db, uploader.claims, ...byId)).toBe('hidden');
    expect(await attempt(test.db, admin.claims, ...byId)).toBe('ok');
    // No one sets the status or someone else's name; no one edits or deletes a report directly.
    expect(
      await attempt(
        test.db,
        other.claims,
        `insert into track_reports (track_id, reason, status) values ($1, 'spam', 'dismissed')`,
        [track.id],
      ),
    ).toBe('denied');
    expect(
      await attempt(
        test.db,
        other.claims,
        `insert into track_reports (track_id, reason, reporter_id) values ($1, 'spam', $2)`,
        [track.id, listener.id],
      ),
    ).toBe('denied');
    expect(
      await attempt(
        test.db,
        ANON,
        `insert into track_reports (track_id, reason) values ($1, 'spam')`,
        [track.id],
      ),
    ).toBe('denied');
    for (const c of [listener.claims, admin.claims]) {
      expect(
        await attempt(test.db, c, `update track_reports set status = 'dismissed' where id = $1`, [
          r.id,
        ]),
      ).toBe('denied');
      expect(await attempt(test.db, c, 'delete from track_reports where id = $1', [r.id])).toBe(
        'denied',
      );
    }
    expect(
      await attempt(
        test.db,
        other.claims,
        `insert into track_reports (track_id, reason) values ($1, 'rude')`,
        [track.id],
      ),
    ).toBe('error 23514');
    // One open report per listener and track.
    expect(
      await attempt(
        test.db,
        listener.claims,
        `insert into track_reports (track_id, reason) values ($1, 'other')`,
        [track.id],
      ),
    ).toBe('error 23505');
  });

  it('dismissing closes one report once; the track stays', async () => {
    const uploader = await createUser(test.db);
    const listener = await createUser(test.db);
    const track = await createTrack(test.db, uploader);
    const r = await report(listener, track.id);
    await expect(resolve(listener.claims, r.id, 'dismiss')).rejects.toMatchObject({
      code: '42501',
    });
    expect((await resolve(admin.claims, r.id, 'dismiss')).status).toBe('dismissed');
    await expect(resolve(admin.claims, r.id, 'take_down')).rejects.toThrow(
      'This report has already been handled.',
    );
    expect(await attempt(test.db, ANON, 'select * from tracks where id = $1', [track.id])).toBe(
      'ok',
    );
  });

  it('a takedown hides the track from listeners at once, tombstones it, and tells the uploader why', async () => {
    const uploader = await createUser(test.db);
    const listener = await createUser(test.db);
    const second = await createUser(test.db);
    const track = await createTrack(test.db, uploader, { title: 'Copied' });
    const r1 = await report(listener, track.id);
    const r2 = await report(second, track.id, 'offensive');
    const done = await resolve(admin.claims, r1.id, 'take_down', 'Copyright claim by Label X.');
    expect(done.status).toBe('taken_down');

    const byId: [string, unknown[]] = ['select id from tracks where id = $1', [track.id]];
    expect(await attempt(test.db, ANON, ...byId)).toBe('hidden');
    expect(await attempt(test.db, listener.claims, ...byId)).toBe('hidden');
    expect(await attempt(test.db, admin.claims, ...byId)).toBe('ok');
    const own = await call<{ taken_down_at: string | null; takedown_reason: string }>(
      uploader.claims,
      'select taken_down_at, takedown_reason from tracks where id = $1',
      [track.id],
    );
    expect(own[0]).toMatchObject({ takedown_reason: 'Copyright claim by Label X.' });
    expect(own[0]!.taken_down_at).not.toBeNull();
    // The uploader cannot undo it.
    expect(
      await attempt(
        test.db,
        uploader.claims,
        'update tracks set taken_down_at = null where id = $1',
        [track.id],
      ),
    ).toBe('denied');
    // The listener's next pull sees the tombstone.
    const tomb = await call(
      listener.claims,
      `select 1 from sync_deletions where table_name = 'tracks' and row_key = $1`,
      [track.id],
    );
    expect(tomb).toHaveLength(1);
    // Every open report of the track is closed with it.
    const status = await call<{ status: string }>(
      admin.claims,
      'select status from track_reports where id = $1',
      [r2.id],
    );
    expect(status[0]!.status).toBe('taken_down');
    const log = await call<{ action: string }>(
      admin.claims,
      `select action from admin_audit_log where target_id = $1`,
      [track.id],
    );
    expect(log.map((e) => e.action)).toEqual(['track.take_down']);
  });
});

describe(`the artist's earnings (${testDatabaseKind()})`, () => {
  it('sums plays per day, month and track from the ledger, and a monthly statement', async () => {
    const artist = await createUser(test.db);
    const listener = await createUser(test.db, { established: true });
    const t1 = await createTrack(test.db, artist, { title: 'One' });
    const t2 = await createTrack(test.db, artist, { title: 'Two' });
    // Whole listens: the server served each track before each call (docs/plays.md).
    for (let i = 0; i < 3; i++) {
      await serveAudio(test.db, listener.id, t1.id);
      await call(listener.claims, 'select public.increment_track_plays($1, $2)', [t1.id, `s${i}`]);
    }
    await serveAudio(test.db, listener.id, t2.id);
    await call(listener.claims, 'select public.increment_track_plays($1, $2)', [t2.id, 's']);
    const [row] = await call<{
      e: {
        total_plays: number;
        total_earned: number;
        daily: { amount: number; plays: number }[];
        monthly: unknown[];
        tracks: { title: string; plays: number; amount: number }[];
      };
    }>(artist.claims, 'select public.my_earnings(30, 12) as e');
    const e = row!.e;
    expect(e.total_plays).toBe(4);
    expect(String(e.total_earned)).toBe('0.0084');
    expect(e.daily).toHaveLength(30);
    expect(e.daily.at(-1)).toMatchObject({ plays: 4 });
    expect(e.monthly).toHaveLength(12);
    expect(e.tracks.map((t) => [t.title, t.plays, String(t.amount)])).toEqual([
      ['One', 3, '0.0063'],
      ['Two', 1, '0.0021'],
    ]);
    // Someone else's earnings are not readable through it.
    const [theirs] = await call<{ e: { total_plays: number } }>(
      listener.claims,
      'select public.my_earnings() as e',
    );
    expect(theirs!.e.total_plays).toBe(0);

    const month = new Date().toISOString().slice(0, 7);
    const [st] = await call<{
      s: {
        month: string;
        opening_balance: number;
        closing_balance: number;
        lines: { track: string; plays: number; kind: string }[];
      };
    }>(artist.claims, 'select public.my_earnings_statement($1::date) as s', [`${month}-01`]);
    expect(st!.s.month).toBe(month);
    expect(String(st!.s.opening_balance)).toBe('0');
    expect(String(st!.s.closing_balance)).toBe('0.0084');
    expect(st!.s.lines.map((l) => [l.kind, l.track, l.plays])).toEqual([
      ['play', 'One', 3],
      ['play', 'Two', 1],
    ]);

    // Plays are the credited amount over the rate: a bulk credit of 1,000 plays counts as such.
    await test.db.query(`select public.post_ledger_entry($1, 2.1, 'play', $2)`, [artist.id, t2.id]);
    const [bulk] = await call<{
      e: { total_plays: number; tracks: { title: string; plays: number }[] };
    }>(artist.claims, 'select public.my_earnings() as e');
    expect(bulk!.e.total_plays).toBe(1004);
    expect(bulk!.e.tracks.map((t) => [t.title, t.plays])).toEqual([
      ['Two', 1001],
      ['One', 3],
    ]);
  });
});
