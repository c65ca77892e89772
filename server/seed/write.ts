/**
 * Writes a seed plan into the database, inside the caller's transaction, as the database owner
 * (the server's own connection): auth users and identities as GoTrue stores them, profiles,
 * tracks with their plays, lyrics, playlists, follows, likes, listening history, and the
 * earnings ledger entries that pay the seeded plays.
 */
import type { Queryable } from '../db/database';
import { recordProcessed } from '../processing/record';
import { playsByMonth } from './earnings';
import { writeSeedInsights } from './insights';
import type { SeedPlan } from './plan';

/** created_at/updated_at triggers switched off while writing, so release dates stay in the past. */
const BACKDATED = ['public.profiles', 'public.tracks', 'public.playlists'];
const MINUTE_MS = 60_000;

export async function writeSeedPlan(tx: Queryable, plan: SeedPlan): Promise<void> {
  for (const table of BACKDATED)
    await tx.query(`alter table ${table} disable trigger handle_timestamps`);
  const { users, tracks, catalogue } = plan;
  const idOf = new Map(users.map((u) => [u.key, u.id]));
  const user = (key: string) => {
    const id = idOf.get(key);
    if (!id) throw new Error(`unknown seed user ${key}`);
    return id;
  };

  for (const u of users) {
    await tx.query(
      `insert into auth.users (instance_id, id, aud, role, email, encrypted_password,
          email_confirmed_at, confirmation_token, recovery_token, email_change_token_new,
          email_change, raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
       values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated',
          $2, $3, $4, '', '', '', '', '{"provider":"email","providers":["email"]}', $5, $4, $4)`,
      [u.id, u.email, u.passwordHash, u.joinedAt, JSON.stringify({ name: u.name })],
    );
    await tx.query(
      `insert into auth.identities (provider_id, user_id, identity_data, provider, created_at, updated_at)
       values ($1::text, $1::uuid, $2, 'email', $3, $3)`,
      [
        u.id,
        JSON.stringify({ sub: u.id, email: u.email, email_verified: true, phone_verified: false }),
        u.joinedAt,
      ],
    );
    await tx.query(
      `update public.profiles
          set bio = $2, social_links = $3, avatar_url = $4, subscription_plan = $5,
              created_at = $6, updated_at = $6
        where id = $1`,
      [u.id, u.bio, JSON.stringify(u.social), u.avatarUrl, u.plan, u.joinedAt],
    );
  }

  const trackId = new Map<string, string>();
  for (const t of tracks) {
    // Processed in the generator's workers (as an upload's job would): inserted ready, with its
    // waveform and measurements. Otherwise in processing: the insert trigger queues its job.
    const { rows } = await tx.query<{ id: string }>(
      `insert into public.tracks (id, title, artist, album, genre, duration, audio_url, cover_image,
          uploaded_by, plays, verified, created_at, updated_at, status)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12, $13) returning id`,
      [
        t.id,
        t.title,
        t.artistName,
        t.album,
        t.genreLabel,
        t.duration,
        t.audioUrl,
        t.coverUrl,
        t.uploadedBy,
        t.plays,
        t.verified,
        t.releasedAt,
        t.processed ? 'ready' : 'processing',
      ],
    );
    const id = rows[0]?.id;
    if (!id) throw new Error(`track ${t.title} not inserted`);
    if (t.processed) await recordProcessed(tx, id, t.processed);
    trackId.set(t.title, id);
    if (t.lyricLines) {
      await tx.query(
        `insert into public.track_lyrics (track_id, lyrics, language, is_synced, last_edited_by)
         values ($1, $2, 'en', true, $3)
         on conflict (track_id) do update
           set lyrics = excluded.lyrics, language = excluded.language,
               is_synced = excluded.is_synced, last_edited_by = excluded.last_edited_by`,
        [id, JSON.stringify(t.lyricLines), t.uploadedBy],
      );
    }
    // The seeded plays, paid through the ledger like counted plays: one entry per month since
    // the release (server/seed/earnings.ts), dated then, and the balance moved by their sum in
    // the same statement (post_ledger_entry's rule; it dates entries now(), hence not used).
    const months = playsByMonth(t.plays, t.releasedAt, plan.now);
    if (months.length > 0) {
      await tx.query(
        `with e as (
           insert into public.earnings_ledger (user_id, amount, kind, track_id, created_at)
           select $1, x.n * public.play_rate_eur(), 'play', $2, x.at
             from unnest($3::int[], $4::timestamptz[]) as x(n, at)
           returning amount)
         update public.profiles set balance = balance + (select sum(amount) from e) where id = $1`,
        [t.uploadedBy, id, months.map((x) => x.plays), months.map((x) => x.at.toISOString())],
      );
    }
  }
  const track = (title: string) => {
    const id = trackId.get(title);
    if (!id) throw new Error(`unknown seed track ${title}`);
    return id;
  };
  // The upload trigger counted every insert as this month's; count by release date instead.
  await tx.query(
    `update public.profiles p
        set monthly_uploads = (select count(*) from public.tracks t
                                where t.uploaded_by = p.id
                                  and t.created_at >= p.monthly_uploads_month::timestamp at time zone 'utc')
      where p.id = any($1::uuid[])`,
    [users.map((u) => u.id)],
  );

  const playlistId = new Map<string, string>();
  for (const p of catalogue.playlists) {
    const created = new Date(plan.now.getTime() - p.daysAgo * 1440 * MINUTE_MS);
    const firstCover = tracks.find((t) => t.title === p.tracks[0])?.coverUrl ?? null;
    const { rows } = await tx.query<{ id: string }>(
      `insert into public.playlists (name, description, cover_image, created_by, track_ids, created_at, updated_at)
       values ($1, $2, $3, $4, $5::uuid[], $6, $6) returning id`,
      [p.name, p.description, firstCover, user(p.owner), p.tracks.map(track), created],
    );
    if (rows[0]) playlistId.set(`${p.owner}/${p.name}`, rows[0].id);
  }

  // Featured: each artist's most played track; the playlist an artist made.
  for (const u of users) {
    const own = tracks.filter((t) => t.uploadedBy === u.id && t.verified);
    const top = own.sort((a, b) => b.plays - a.plays)[0];
    const playlist = [...playlistId.entries()].find(([key]) => key.startsWith(`${u.key}/`))?.[1];
    if (top || playlist) {
      await tx.query(
        `update public.profiles set featured_track = $2, featured_playlist = $3 where id = $1`,
        [u.id, top ? track(top.title) : null, playlist ?? null],
      );
    }
  }

  for (const [follower, following] of catalogue.follows) {
    if (!idOf.has(follower) || !idOf.has(following)) continue;
    await tx.query(`insert into public.followers (follower_id, following_id) values ($1, $2)`, [
      user(follower),
      user(following),
    ]);
  }
  for (const like of catalogue.likes) {
    if (!idOf.has(like.user)) continue;
    await tx.query(`insert into public.liked_tracks (user_id, track_id) values ($1, $2)`, [
      user(like.user),
      track(like.track),
    ]);
  }
  const history = catalogue.history.filter((h) => idOf.has(h.user));
  await tx.query(
    `insert into public.listening_history (user_id, track_id, listened_at)
     select u, t, $4::timestamptz - make_interval(mins => m)
       from unnest($1::uuid[], $2::uuid[], $3::int[]) as h(u, t, m)`,
    [
      history.map((h) => user(h.user)),
      history.map((h) => track(h.track)),
      history.map((h) => h.minutesAgo),
      plan.now,
    ],
  );
  await writeSeedInsights(tx, plan);
  for (const table of BACKDATED)
    await tx.query(`alter table ${table} enable trigger handle_timestamps`);
}
