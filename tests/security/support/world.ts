/**
 * The world the attacks run in: an owner (premium, with a balance, a Stripe customer, a
 * withdrawal, plays, likes, history, a download, a report...), another user and an admin.
 * Arranged as the server's own connection (no RLS), like the seed; the attacks then go over
 * HTTP. The owner's secrets carry canaries: no answer to anyone but the owner and the admin
 * may contain them.
 */
import { randomUUID } from 'node:crypto';
import type { Database } from '../../../server/db/database';
import {
  createAudioObject,
  createPlaylist,
  createTrack,
  createUser,
  type TestUser,
} from '../../../server/db/test-factories';
import { ADMIN_EMAIL } from './target';

export interface World {
  db: Database;
  owner: TestUser;
  other: TestUser;
  admin: TestUser;
  /** A ready track of the owner's, and one of the other user's. */
  trackO: string;
  trackX: string;
  playlistO: string;
  withdrawalO: string;
  /** Strings only the owner and admins may ever read (e-mail, Stripe id, bank details, balance). */
  canaries: string[];
  /** A fresh user (for rows keyed by a second user: follows). */
  freshUser: () => Promise<TestUser>;
  /** A fresh ready track of `who` (default the other user). */
  freshTrack: (who?: TestUser) => Promise<string>;
  /** A fresh audio object of the owner's in the tracks bucket (its name). */
  freshAudio: () => Promise<string>;
  one: <T = Record<string, unknown>>(sql: string, params?: unknown[]) => Promise<T>;
}

export async function buildWorld(db: Database): Promise<World> {
  const tag = randomUUID().slice(0, 8);
  const canaryEmail = `canary-${tag}@owner.test`;
  const owner = await createUser(db, { email: canaryEmail, established: true });
  const other = await createUser(db, { established: true });
  const admin = await createUser(db, { email: ADMIN_EMAIL, established: true });
  await db.query('select public.sync_admin_emails($1::text[])', [[ADMIN_EMAIL]]);
  const stripe = `cus_CANARY${tag}`;
  const iban = `CANARY-IBAN-${tag}`;
  await db.query(
    `update public.profiles set subscription_plan = 'premium', stripe_customer_id = $2 where id = $1`,
    [owner.id, stripe],
  );
  const one = async <T = Record<string, unknown>>(sql: string, params: unknown[] = []) => {
    const { rows } = await db.query<T & Record<string, unknown>>(sql, params);
    if (!rows[0]) throw new Error(`no row: ${sql}`);
    return rows[0] as T;
  };
  const trackO = (await createTrack(db, owner, { title: 'Owner track' })).id;
  const trackX = (await createTrack(db, other, { title: 'Other track' })).id;
  // A balance of 4321.0987 EUR: an unlikely number to find in an answer by chance.
  await db.query(`select public.post_ledger_entry($1, 4321.0987, 'play', $2, $3)`, [
    owner.id,
    trackO,
    other.id,
  ]);
  const playlistO = await createPlaylist(db, owner, [trackX]);
  const withdrawalO = (
    await one<{ id: string }>(
      `insert into public.withdrawals (user_id, amount, method, details)
       values ($1, 5, 'bank', $2) returning id`,
      [owner.id, iban],
    )
  ).id;
  await db.exec(
    `insert into public.liked_tracks (user_id, track_id) values ($1, $2);
     insert into public.listening_history (user_id, track_id) values ($1, $2);
     insert into public.followers (follower_id, following_id) values ($1, $3);
     insert into public.play_events (listener_id, track_id, session_id, counted) values ($1, $2, 'canary-session', true);
     insert into public.track_downloads (user_id, track_id, object, valid_until)
       values ($1, $2, 'tracks/x', now() + interval '30 days');
     insert into public.track_reports (track_id, reporter_id, reason, note) values ($2, $1, 'spam', 'CANARY-NOTE');
     insert into public.subscriptions (id, user_id, customer_id, plan_id, price_id, status)
       values ('sub_CANARY', $1, $4, 'premium', 'price_x', 'active')`.replace(
      /\$(\d)/g,
      (_, n) => ['', `'${owner.id}'`, `'${trackX}'`, `'${other.id}'`, `'${stripe}'`][Number(n)]!,
    ),
  );
  return {
    db,
    owner,
    other,
    admin,
    trackO,
    trackX,
    playlistO,
    withdrawalO,
    canaries: [canaryEmail, stripe, iban, '4321.0987', 'CANARY-NOTE', 'canary-session'],
    freshUser: () => createUser(db, { established: true }),
    freshTrack: async (who = other) => (await createTrack(db, who)).id,
    freshAudio: () => createAudioObject(db, owner),
    one,
  };
}
