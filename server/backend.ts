/**
 * The Supabase-compatible backend of one process: the database (migrated), the keys, and the
 * HTTP modules mounted under their Supabase paths. `npm start`, the tests and the benchmarks all
 * start it the same way.
 */
import type { Hono } from 'hono';
import { createAuthApp } from './auth';
import { DEFAULT_ADMIN_EMAILS, parseAdminEmails, syncAdmins } from './db/admins';
import type { Database } from './db/database';
import { openAndMigrate } from './db/migrate';
import { loadKeys, type Keys } from './keys';
import { createDevMailApp, createMailer, type Mailer } from './mail';
import { createFunctionsApp } from './functions';
import { createRestApp } from './rest';
import { createStorageApp, openObjectStore, type ObjectStore } from './storage';

export interface Backend {
  db: Database;
  keys: Keys;
  /** Files of /storage/v1, under DATA_DIR/storage (or in memory). */
  store: ObjectStore;
  /** Outgoing mail: SMTP_URL, or the dev mailbox at /_dev/mail. */
  mailer: Mailer;
  /** Sub-apps by the path they are mounted at. */
  mounts: { path: string; app: Hono }[];
  /** `GET /_dev/config` payload, or null outside development. */
  devConfig: { url: string; anonKey: string } | null;
  close(): Promise<void>;
}

export async function startBackend(
  env: NodeJS.ProcessEnv = process.env,
  { publicUrl }: { publicUrl: string },
): Promise<Backend> {
  const keys = loadKeys(env);
  const db = await openAndMigrate(env);
  try {
    await syncAdmins(db, parseAdminEmails(env.ADMIN_EMAILS ?? DEFAULT_ADMIN_EMAILS));
    const rest = createRestApp({ db, keys });
    await rest.ready;
    const store = openObjectStore(env.DATA_DIR?.trim() || './.data');
    const mailer = createMailer(env);
    const mounts: Backend['mounts'] = [
      { path: '/auth/v1', app: createAuthApp({ db, keys, mailer, env, publicUrl }) },
      { path: '/rest/v1', app: rest },
      { path: '/storage/v1', app: createStorageApp({ db, keys, store }) },
      { path: '/functions/v1', app: createFunctionsApp({ db, keys, env }) },
    ];
    // The dev mailbox shows every sign-in link: never on a production server.
    if (env.NODE_ENV !== 'production')
      mounts.push({ path: '/_dev', app: createDevMailApp(mailer) });
    return {
      db,
      keys,
      store,
      mailer,
      mounts,
      devConfig: env.NODE_ENV === 'production' ? null : { url: publicUrl, anonKey: keys.anonKey },
      close: () => db.close(),
    };
  } catch (error) {
    await db.close();
    throw error;
  }
}
