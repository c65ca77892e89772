/**
 * Object metadata operations (find, list, remove, move, copy), each in one transaction under the
 * caller's role and claims so that RLS on storage.objects decides, exactly as Supabase Storage.
 */
import { randomUUID } from 'node:crypto';
import { asRole, type JwtClaims, type RequestInfo } from '../db/as-role';
import type { Database, Queryable } from '../db/database';
import { StorageError, storageErrorFromDatabase } from './errors';
import { assertSafeObjectName } from './names';
import type { ObjectStore } from './object-store';
import { assertCallerExists, findBucket, sizeLimitOf, type ObjectMetadata } from './service';
import { isAllowedType, isSniffedType } from './sniff';

export interface Caller {
  claims: JwtClaims | null;
  request?: RequestInfo;
}

/** A row as Storage returns it (`FileObject` of storage-js). */
export interface ObjectRow {
  id: string;
  name: string;
  bucket_id: string;
  owner: string | null;
  owner_id: string | null;
  version: string | null;
  created_at: string;
  updated_at: string;
  last_accessed_at: string;
  metadata: ObjectMetadata | null;
  user_metadata: Record<string, unknown> | null;
}

const iso = (column: string) =>
  `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
export const OBJECT_COLUMNS = `id, name, bucket_id, owner, owner_id, version,
  ${iso('created_at')} as created_at, ${iso('updated_at')} as updated_at,
  ${iso('last_accessed_at')} as last_accessed_at, metadata, user_metadata`;

async function run<T>(db: Database, caller: Caller, fn: (tx: Queryable) => Promise<T>) {
  try {
    return await asRole(db, caller.claims, fn, caller.request);
  } catch (err) {
    throw storageErrorFromDatabase(err) ?? err;
  }
}

/** The object as the caller may see it (null: absent or hidden by RLS). `asService` skips RLS. */
export async function findObject(
  db: Database,
  caller: Caller | 'service',
  bucket: string,
  name: string,
): Promise<ObjectRow | null> {
  assertSafeObjectName(name);
  const sql = `select ${OBJECT_COLUMNS} from storage.objects where bucket_id = $1 and name = $2`;
  if (caller === 'service') {
    const { rows } = await db.query<ObjectRow>(sql, [bucket, name]);
    return rows[0] ?? null;
  }
  const { rows } = await run(db, caller, (tx) => tx.query<ObjectRow>(sql, [bucket, name]));
  return rows[0] ?? null;
}

export interface ListOptions {
  prefix?: string;
  limit?: number;
  offset?: number;
  search?: string;
  sortBy?: { column?: string; order?: string };
}

const SORT_COLUMNS = new Set(['name', 'updated_at', 'created_at', 'last_accessed_at']);

/**
 * One folder level, as Storage's `list`: the folders (name only, other fields null) and files
 * directly under `prefix` (a folder; a trailing slash is implied).
 */
export async function listObjects(db: Database, caller: Caller, bucket: string, o: ListOptions) {
  await findBucket(db, bucket);
  let prefix = o.prefix ?? '';
  if (prefix.length > 0 && !prefix.endsWith('/')) prefix += '/';
  const limit = Math.min(Math.max(Math.trunc(Number(o.limit ?? 100)) || 100, 1), 1000);
  const offset = Math.max(Math.trunc(Number(o.offset ?? 0)) || 0, 0);
  const column = SORT_COLUMNS.has(o.sortBy?.column ?? '') ? (o.sortBy?.column as string) : 'name';
  const order = o.sortBy?.order?.toLowerCase() === 'desc' ? 'desc' : 'asc';
  // Byte order (collate "C"), as Storage's search: the same on every server locale.
  const orderBy =
    column === 'name'
      ? `name collate "C" ${order}`
      : `${column} ${order} nulls first, name collate "C" ${order}`;
  const sql = `
    with level as (
      select o.*, split_part(substr(o.name, char_length($2) + 1), '/', 1) as entry,
             strpos(substr(o.name, char_length($2) + 1), '/') > 0 as is_folder
        from storage.objects o
       where o.bucket_id = $1 and left(o.name, char_length($2)) = $2
    ), entries as (
      select entry as name, null::uuid as id, null::timestamptz as updated_at,
             null::timestamptz as created_at, null::timestamptz as last_accessed_at,
             null::jsonb as metadata
        from level where is_folder group by entry
      union all
      select entry, id, updated_at, created_at, last_accessed_at, metadata
        from level where not is_folder
    )
    select name, id, ${iso('updated_at')} as updated_at, ${iso('created_at')} as created_at,
           ${iso('last_accessed_at')} as last_accessed_at, metadata
      from entries
     where $3 = '' or name ilike replace(replace(replace($3, '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%'
     order by ${orderBy}
     limit $4 offset $5`;
  const { rows } = await run(db, caller, (tx) =>
    tx.query(sql, [bucket, prefix, o.search ?? '', limit, offset]),
  );
  return rows;
}

/** Deletes the named objects the caller may delete; returns the deleted rows. */
export async function removeObjects(
  db: Database,
  store: ObjectStore,
  caller: Caller,
  bucket: string,
  names: string[],
): Promise<ObjectRow[]> {
  await findBucket(db, bucket);
  if (names.length > 1000) throw StorageError.invalidRequest('At most 1000 prefixes at once');
  const valid = names.filter((n) => typeof n === 'string' && n.length > 0);
  if (valid.length === 0) return [];
  const { rows } = await run(db, caller, (tx) =>
    tx.query<ObjectRow>(
      `delete from storage.objects where bucket_id = $1 and name = any($2::text[])
       returning ${OBJECT_COLUMNS}`,
      [bucket, valid],
    ),
  );
  // Bytes go after the commit: a failed commit never loses a file that is still listed.
  for (const row of rows) await store.remove(bucket, row.name);
  return rows;
}

export interface TransferInput {
  bucket: string;
  from: string;
  to: string;
  toBucket?: string;
  upsert?: boolean;
}

/** The destination bucket must accept the object as it would an upload. */
async function checkDestination(db: Database, toBucket: string, source: ObjectRow) {
  const bucket = await findBucket(db, toBucket);
  const size = Number(source.metadata?.size ?? 0);
  if (size > sizeLimitOf(bucket)) throw StorageError.tooLarge();
  const type = source.metadata?.mimetype ?? 'application/octet-stream';
  if (!isSniffedType(type) || !isAllowedType(type, bucket.allowedMimeTypes)) {
    throw StorageError.invalidMimeType(type);
  }
}

/** Moves an object (RLS: the caller may update the source row into the destination). */
export async function moveObject(
  db: Database,
  store: ObjectStore,
  caller: Caller,
  t: TransferInput,
): Promise<void> {
  assertSafeObjectName(t.from);
  assertSafeObjectName(t.to);
  const toBucket = t.toBucket ?? t.bucket;
  const source = await findObject(db, caller, t.bucket, t.from);
  if (!source) throw StorageError.objectNotFound();
  await checkDestination(db, toBucket, source);
  await run(db, caller, async (tx) => {
    const { rows } = await tx.query(
      `update storage.objects set bucket_id = $3, name = $4, version = $5,
              updated_at = now(), last_accessed_at = now()
        where bucket_id = $1 and name = $2 returning id`,
      [t.bucket, t.from, toBucket, t.to, randomUUID()],
    );
    if (rows.length === 0) throw StorageError.objectNotFound();
    await store.move(t.bucket, t.from, t.to, toBucket);
  });
}

/** Copies an object (RLS: the caller may read the source and insert the destination). */
export async function copyObject(
  db: Database,
  store: ObjectStore,
  caller: Caller,
  t: TransferInput,
): Promise<{ id: string; key: string }> {
  assertSafeObjectName(t.from);
  assertSafeObjectName(t.to);
  const toBucket = t.toBucket ?? t.bucket;
  const source = await findObject(db, caller, t.bucket, t.from);
  if (!source) throw StorageError.objectNotFound();
  await checkDestination(db, toBucket, source);
  await assertCallerExists(db, caller.claims);
  const sub = typeof caller.claims?.sub === 'string' ? caller.claims.sub : null;
  const id = await run(db, caller, async (tx) => {
    const { rows } = await tx.query<{ id: string }>(
      `insert into storage.objects (id, bucket_id, name, owner, owner_id, metadata, user_metadata, version)
       select $5::uuid, $3, $4, case when $6 ~* '^[0-9a-f-]{36}$' then $6::uuid end, $6,
              metadata, user_metadata, $7
         from storage.objects where bucket_id = $1 and name = $2
       ${
         t.upsert
           ? `on conflict (bucket_id, name) do update set metadata = excluded.metadata,
                user_metadata = excluded.user_metadata, owner = excluded.owner,
                owner_id = excluded.owner_id, version = excluded.version, updated_at = now()`
           : ''
       }
       returning id`,
      [t.bucket, t.from, toBucket, t.to, randomUUID(), sub, randomUUID()],
    );
    if (rows.length === 0) throw StorageError.objectNotFound();
    await store.copy(t.bucket, t.from, t.to, toBucket);
    return rows[0]?.id ?? '';
  });
  return { id, key: `${toBucket}/${t.to}` };
}
