/**
 * Every table × select / insert / update / delete × anon / owner / other user / admin, at the SQL
 * level, in the same transaction shape as the REST gateway (asRole). Each attempt is rolled back,
 * so every row starts from the same fixture.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { JwtClaims } from '../../server/db/as-role';
import { attempt, type Outcome } from '../../server/db/test-attempt';
import { CONTENT_CASES } from './rls/cases-content';
import { INTERNAL_CASES } from './rls/cases-internal';
import { ACTORS, type Actor, type Fixture } from './rls/types';
import { DATABASE_HOOK_TIMEOUT_MS, testDatabaseKind } from '../../server/db/test-database';
import { useTestDatabase } from '../../server/db/use-test-database';
import {
  createAdmin,
  createAudioObject,
  createPlaylist,
  createTrack,
  createUser,
} from '../../server/db/test-factories';

const test = useTestDatabase();
let f: Fixture;
let claims: Record<Actor, JwtClaims | null>;

beforeAll(async () => {
  const { db } = test;
  const owner = await createUser(db);
  const other = await createUser(db);
  const admin = await createAdmin(db);
  const trackO = (await createTrack(db, owner)).id;
  const trackO2 = (await createTrack(db, owner, { title: 'Second' })).id;
  const trackX = (await createTrack(db, other)).id;
  // Every new track gets an empty lyrics record; trackO2's is removed so 'insert' can be tried.
  await db.query('delete from track_lyrics where track_id = $1', [trackO2]);
  const playlistO = await createPlaylist(db, owner, [trackX]);
  const likeO = (
    await db.query<{ id: string }>(
      'insert into liked_tracks (user_id, track_id) values ($1, $2) returning id',
      [owner.id, trackX],
    )
  ).rows[0]!.id;
  await db.query('insert into followers (follower_id, following_id) values ($1, $2)', [
    owner.id,
    other.id,
  ]);
  const historyO = (
    await db.query<{ id: string }>(
      'insert into listening_history (user_id, track_id) values ($1, $2) returning id',
      [owner.id, trackX],
    )
  ).rows[0]!.id;
  await db.query(`select public.post_ledger_entry($1, 10, 'play', $2, $3)`, [
    owner.id,
    trackO,
    other.id,
  ]);
  await db.query(
    `insert into play_events (listener_id, track_id, session_id, counted) values ($1, $2, 's', true)`,
    [owner.id, trackX],
  );
  await db.query(
    `insert into served_audio (listener_id, track_id, object, object_size, bytes)
     values ($1, $2, 'tracks/x', 10, '{[0,10)}')`,
    [owner.id, trackX],
  );
  await db.query(
    `insert into track_downloads (user_id, track_id, object, valid_until)
     values ($1, $2, 'tracks/x', now() + interval '30 days')`,
    [owner.id, trackX],
  );
  const withdrawalO = (
    await db.query<{ id: string }>(
      `insert into withdrawals (user_id, amount, method, details) values ($1, 5, 'paypal', 'o@example.test') returning id`,
      [owner.id],
    )
  ).rows[0]!.id;
  await db.query(
    `insert into storage.objects (bucket_id, name, owner_id) values ('covers', $1, $2)`,
    [`${owner.id}/cover.png`, owner.id],
  );
  const audioO = await createAudioObject(db, owner);
  f = {
    owner,
    other,
    admin,
    trackO,
    trackO2,
    audioO,
    trackX,
    playlistO,
    likeO,
    historyO,
    withdrawalO,
  };
  claims = {
    anon: { role: 'anon' },
    owner: owner.claims,
    other: other.claims,
    admin: admin.claims,
  };
}, DATABASE_HOOK_TIMEOUT_MS);
describe(`RLS matrix (${testDatabaseKind()})`, () => {
  for (const [table, cases] of Object.entries({ ...CONTENT_CASES, ...INTERNAL_CASES })) {
    describe(table, () => {
      for (const c of cases) {
        it(`${c.name}: anon ${c.expect[0]}, owner ${c.expect[1]}, other ${c.expect[2]}, admin ${c.expect[3]}`, async () => {
          const [sql, params] = c.sql(f);
          const outcomes: Outcome[] = [];
          for (const actor of ACTORS)
            outcomes.push(await attempt(test.db, claims[actor], sql, params));
          expect(outcomes).toEqual(c.expect);
        });
      }
    });
  }

  it('lets followers read the history of the people they follow (friends activity), and nobody else', async () => {
    const follower = await createUser(test.db);
    const sql = 'select * from listening_history where user_id = $1';
    expect(await attempt(test.db, follower.claims, sql, [f.owner.id])).toBe('hidden');
    await test.db.query('insert into followers (follower_id, following_id) values ($1, $2)', [
      follower.id,
      f.owner.id,
    ]);
    expect(await attempt(test.db, follower.claims, sql, [f.owner.id])).toBe('ok');
  });

  it('lets service_role (the service key) bypass RLS', async () => {
    const service = { role: 'service_role' };
    expect(
      await attempt(test.db, service, 'select * from withdrawals where id = $1', [f.withdrawalO]),
    ).toBe('ok');
    expect(
      await attempt(test.db, service, 'select * from liked_tracks where id = $1', [f.likeO]),
    ).toBe('ok');
  });
});
