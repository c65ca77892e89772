/**
 * The demo catalogue (issue 4): seeded on the first start of an empty database. Generates the
 * music and artwork (deterministic), uploads the files through the storage service, then
 * writes every row in one transaction. A second call finds data and does nothing.
 */
import { randomBytes } from 'node:crypto';
import bcrypt from 'bcryptjs';
import type { Database, Queryable } from '../db/database';
import type { ObjectStore } from '../storage/object-store';
import { putObjectAsService } from '../storage/service';
import { DEFAULT_CACHE_ROOT } from './cache';
import { buildCatalogue, type CatalogueUser } from './catalogue';
import { DEMO_PASSWORD } from './content/social';
import { generateMedia } from './generate';
import { buildSeedPlan, type PlannedObject } from './plan';
import { writeSeedPlan } from './write';

export { DEMO_PASSWORD };

export interface SeedOptions {
  /** ADMIN_EMAILS, parsed; the first one becomes the demo admin account. */
  adminEmails: string[];
  log?: (message: string) => void;
  /** Only the first `limit` tracks (tests). */
  limit?: number;
  /** Worker threads for audio (default 2; 0 = main thread). */
  workers?: number;
  /** The seeding's clock (tests). */
  now?: Date;
  /** Track cache directory (default: the OS temp dir, see cache.ts); false disables it. */
  cacheDir?: string | false;
}

export interface SeedAccount {
  role: 'admin' | 'artist' | 'listener' | 'premium';
  email: string;
  password: string;
}

export interface SeedResult {
  seeded: boolean;
  ms: number;
  accounts: SeedAccount[];
}

/** GoTrue's bcrypt cost. */
const BCRYPT_COST = 10;
/** Serialises two servers seeding one PostgreSQL (any constant; this one spells 'slsd'). */
const SEED_LOCK_KEY = 0x736c7364;

/** Empty = no tracks and no users other than the configured admins. */
export async function isEmptyDatabase(db: Queryable, adminEmails: string[]): Promise<boolean> {
  const { rows } = await db.query<{ empty: boolean }>(
    `select not exists (select 1 from public.tracks)
        and not exists (select 1 from auth.users u
                         where lower(coalesce(u.email, '')) <> all ($1::text[])) as empty`,
    [adminEmails.map((e) => e.toLowerCase())],
  );
  return rows[0]?.empty === true;
}

const DEMO_ROLES = new Set(['admin', 'artist', 'listener', 'premium']);

async function hashPasswords(users: CatalogueUser[]): Promise<Map<string, string>> {
  // Demo accounts share the documented password (each with its own salt); catalogue artists
  // share one random password nobody knows (one hash: first start stays fast).
  const secret = await bcrypt.hash(randomBytes(24).toString('base64url'), BCRYPT_COST);
  const entries = await Promise.all(
    users.map(
      async (u) =>
        [
          u.key,
          DEMO_ROLES.has(u.role) ? await bcrypt.hash(DEMO_PASSWORD, BCRYPT_COST) : secret,
        ] as const,
    ),
  );
  return new Map(entries);
}

async function removeObjects(
  db: Database,
  store: ObjectStore,
  objects: PlannedObject[],
): Promise<void> {
  for (const o of objects) {
    await db
      .query('delete from storage.objects where bucket_id = $1 and name = $2', [o.bucket, o.name])
      .catch(() => undefined);
    await store.remove(o.bucket, o.name).catch(() => undefined);
  }
}

export async function seedDemoCatalogue(
  db: Database,
  store: ObjectStore,
  opts: SeedOptions,
): Promise<SeedResult> {
  const started = performance.now();
  const log = opts.log ?? (() => undefined);
  const elapsed = () => Math.round(performance.now() - started);
  if (!(await isEmptyDatabase(db, opts.adminEmails)))
    return { seeded: false, ms: elapsed(), accounts: [] };
  const adminEmail = opts.adminEmails[0]?.toLowerCase();
  if (!adminEmail) throw new Error('seedDemoCatalogue needs at least one admin e-mail address');

  // An admin who already signed up keeps their account (and password).
  const { rows: existing } = await db.query('select 1 from auth.users where lower(email) = $1', [
    adminEmail,
  ]);
  const skip = new Set(existing.length > 0 ? ['admin'] : []);
  const catalogue = buildCatalogue(opts.limit === undefined ? {} : { limit: opts.limit });
  log(
    `seed: generating ${catalogue.tracks.length} tracks, ${catalogue.covers.length} covers and avatars…`,
  );
  const hashing = hashPasswords(catalogue.users.filter((u) => !skip.has(u.key)));
  const media = await generateMedia(catalogue, {
    workers: opts.workers ?? 2,
    cacheDir: opts.cacheDir ?? DEFAULT_CACHE_ROOT,
    log,
  });
  const hashes = await hashing;
  log(
    `seed: media generated in ${(media.ms / 1000).toFixed(1)} s (${media.workers} workers, ${media.cached} tracks from the cache)`,
  );
  const plan = buildSeedPlan(catalogue, media, {
    adminEmail,
    hashes,
    now: opts.now ?? new Date(),
    skip,
  });

  const uploaded: PlannedObject[] = [];
  let seeded: boolean;
  try {
    for (const o of plan.objects) {
      await putObjectAsService(db, store, { ...o, cacheControl: '3600', upsert: false });
      uploaded.push(o);
    }
    seeded = await db.transaction(async (tx) => {
      await tx.query('select pg_advisory_xact_lock($1)', [SEED_LOCK_KEY]);
      if (!(await isEmptyDatabase(tx, opts.adminEmails))) return false; // another server won
      await writeSeedPlan(tx, plan);
      return true;
    });
  } catch (error) {
    await removeObjects(db, store, uploaded);
    throw error;
  }
  if (!seeded) {
    await removeObjects(db, store, uploaded);
    return { seeded: false, ms: elapsed(), accounts: [] };
  }
  const accounts: SeedAccount[] = plan.users
    .filter((u) => DEMO_ROLES.has(u.role))
    .map((u) => ({ role: u.role as SeedAccount['role'], email: u.email, password: DEMO_PASSWORD }))
    .sort(
      (a, b) =>
        ['admin', 'artist', 'listener', 'premium'].indexOf(a.role) -
        ['admin', 'artist', 'listener', 'premium'].indexOf(b.role),
    );
  log(`seed: demo catalogue ready in ${(elapsed() / 1000).toFixed(1)} s`);
  return { seeded: true, ms: elapsed(), accounts };
}
