/**
 * Upload integration harness: a fresh migrated database with `/rest/v1` and `/storage/v1` on a
 * real port, the processing job runner on real worker threads, and supabase-js clients.
 */
import { Hono } from 'hono';
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '../db/database';
import { openTestDatabase } from '../db/test-database';
import { putObjectAsService } from '../storage/service';
import { createUser, type TestUser } from '../db/test-factories';
import { loadKeys, type Keys } from '../keys';
import { createRestApp } from '../rest';
import { createStorageApp, type SignedRead } from '../storage/app';
import { openObjectStore, type ObjectStore } from '../storage/object-store';
import { createS3ObjectStore } from '../storage/s3-object-store';
import { accessToken, serveApp, supabaseClient } from '../storage/test-support';
import { startTestS3Server } from '../storage/test-s3';
import { startTrackProcessing, type TrackProcessing, type TrackProcessingOptions } from './jobs';

export interface UploadHarness {
  db: Database;
  keys: Keys;
  store: ObjectStore;
  url: string;
  processing: TrackProcessing;
  /** Every read through a signed URL that sent bytes, oldest first. */
  signedReads: SignedRead[];
  tokenFor: (user: TestUser) => string;
  client: (user?: TestUser) => SupabaseClient;
  newUser: (plan?: 'free' | 'basic' | 'premium') => Promise<TestUser>;
  close: () => Promise<void>;
}

/**
 * `processing`: the job runner's sweep settings (tests of the originals no track uses);
 * `backend`: where the bytes live (memory, or S3 on a fresh s3rver).
 */
export async function startUploadHarness(
  processingOptions: Pick<TrackProcessingOptions, 'orphanGraceMs' | 'orphanSweepMs'> = {},
  backend: 'memory' | 's3' = 'memory',
): Promise<UploadHarness> {
  const test = await openTestDatabase();
  const keys = loadKeys(
    { JWT_SECRET: 'upload-test-secret-at-least-32-characters' },
    () => undefined,
  );
  const s3 = backend === 's3' ? await startTestS3Server() : null;
  const store = s3 ? createS3ObjectStore(s3.config) : openObjectStore('memory');
  const rest = createRestApp({ db: test.db, keys });
  await rest.ready;
  const app = new Hono();
  app.route('/rest/v1', rest);
  const signedReads: SignedRead[] = [];
  app.route(
    '/storage/v1',
    createStorageApp({ db: test.db, keys, store, onSignedRead: (read) => signedReads.push(read) }),
  );
  const server = await serveApp(app);
  const processing = startTrackProcessing({
    db: test.db,
    store,
    workers: 2,
    pollMs: 100,
    ...processingOptions,
  });
  const tokenFor = (user: TestUser) => accessToken(keys, user);
  return {
    db: test.db,
    keys,
    store,
    url: server.url,
    processing,
    signedReads,
    tokenFor,
    client: (user) => supabaseClient(server.url, keys.anonKey, user ? tokenFor(user) : undefined),
    newUser: async (plan = 'free') => {
      const user = await createUser(test.db);
      await test.db.query('update public.profiles set subscription_plan = $2 where id = $1', [
        user.id,
        plan,
      ]);
      return user;
    },
    close: async () => {
      await processing.close();
      await server.close();
      await test.close();
      await s3?.close();
    },
  };
}

/** A track of a new user with its original (`bytes`) in `store`; in processing: its job is queued. */
export async function trackWithOriginal(
  db: Database,
  store: ObjectStore,
  bytes: Uint8Array,
  status: 'processing' | 'ready',
): Promise<string> {
  const user = await createUser(db);
  const name = `${user.id}/1700000000000_take.mp3`;
  await putObjectAsService(db, store, {
    bucket: 'tracks',
    name,
    owner: user.id,
    bytes,
    contentType: 'audio/mpeg',
  });
  const { rows } = await db.query<{ id: string }>(
    `insert into public.tracks (title, artist, duration, audio_url, uploaded_by, status)
     values ('Take', 'Someone', 2, $1, $2, $3) returning id`,
    [`tracks/${name}`, user.id, status],
  );
  return (rows[0] as { id: string }).id;
}
