/**
 * Plays integration harness: a fresh migrated database with `/rest/v1` and `/storage/v1` on a
 * real port, the storage app's signed reads written as evidence exactly as server/backend.ts
 * wires them, and supabase-js clients. Tracks are legacy-shaped (no renditions: the original in
 * the tracks bucket plays for every signed-in listener) so no processing is needed.
 */
import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '../db/database';
import { openTestDatabase } from '../db/test-database';
import { claimsFor, createUser, type TestUser } from '../db/test-factories';
import { loadKeys, type Keys } from '../keys';
import { makeWav, synthSignal } from '../processing/test-fixtures';
import { createRestApp } from '../rest';
import { createStorageApp } from '../storage/app';
import { openObjectStore } from '../storage/object-store';
import { accessToken, serveApp, supabaseClient } from '../storage/test-support';
import { createPlayEvidence, type PlayEvidence } from './evidence';

export interface PlaysHarness {
  db: Database;
  keys: Keys;
  url: string;
  plays: PlayEvidence;
  client: (user?: TestUser) => SupabaseClient;
  /** supabase-js after a fresh sign-in of `user`: a token with a new session_id claim. */
  signIn: (user: TestUser) => SupabaseClient;
  /**
   * A listener. `established` (default): e-mail confirmed and the account two days old, so the
   * new-account bound does not apply; otherwise a user created now. `confirmed` (default true):
   * whether the e-mail is confirmed.
   */
  newUser: (o?: {
    plan?: 'free' | 'basic' | 'premium';
    established?: boolean;
    confirmed?: boolean;
  }) => Promise<TestUser>;
  /** A ready track of `seconds` seconds (a WAV original) uploaded by `uploader`. */
  newTrack: (uploader: TestUser, seconds: number) => Promise<{ id: string; path: string }>;
  /** The signed URL the player would fetch for `user` (optionally as a download). */
  signedUrl: (user: TestUser, path: string, download?: boolean) => Promise<string>;
  close: () => Promise<void>;
}

export async function startPlaysHarness(): Promise<PlaysHarness> {
  const test = await openTestDatabase();
  const keys = loadKeys(
    { JWT_SECRET: 'plays-test-secret-at-least-32-characters' },
    () => undefined,
  );
  const store = openObjectStore('memory');
  const rest = createRestApp({ db: test.db, keys });
  await rest.ready;
  const plays = createPlayEvidence(test.db);
  const app = new Hono();
  app.route('/rest/v1', rest);
  app.route(
    '/storage/v1',
    createStorageApp({ db: test.db, keys, store, onSignedRead: plays.onSignedRead }),
  );
  const server = await serveApp(app);
  const client = (user?: TestUser) =>
    supabaseClient(server.url, keys.anonKey, user ? accessToken(keys, user) : undefined);
  return {
    db: test.db,
    keys,
    url: server.url,
    plays,
    client,
    signIn: (user) =>
      supabaseClient(
        server.url,
        keys.anonKey,
        accessToken(keys, { ...user, claims: claimsFor(user.id, user.email, randomUUID()) }),
      ),
    newUser: async ({ plan = 'free', established = true, confirmed = true } = {}) => {
      const user = await createUser(test.db, { confirmed });
      await test.db.query('update public.profiles set subscription_plan = $2 where id = $1', [
        user.id,
        plan,
      ]);
      if (established)
        await test.db.query(
          `update auth.users set created_at = now() - interval '2 days' where id = $1`,
          [user.id],
        );
      return user;
    },
    newTrack: async (uploader, seconds) => {
      const path = `${uploader.id}/${Date.now()}_${randomUUID().slice(0, 6)}.wav`;
      const wav = makeWav(synthSignal(seconds, { sampleRate: 8000, channels: 1 }));
      const up = await client(uploader).storage.from('tracks').upload(path, wav);
      if (up.error) throw up.error;
      const { rows } = await test.db.query<{ id: string }>(
        `insert into public.tracks (title, artist, duration, audio_url, uploaded_by, status)
         values ('Track', 'Artist', $1, $2, $3, 'ready') returning id`,
        [seconds, `tracks/${path}`, uploader.id],
      );
      const id = rows[0]?.id;
      if (!id) throw new Error('track not created');
      return { id, path };
    },
    signedUrl: async (user, path, download = false) => {
      const { data, error } = await client(user)
        .storage.from('tracks')
        .createSignedUrl(path, 600, download ? { download: true } : undefined);
      if (error) throw error;
      return data.signedUrl;
    },
    close: async () => {
      await plays.settled();
      await server.close();
      await test.close();
    },
  };
}
