/**
 * Writing objects: the one path every upload takes (the HTTP API as the caller, the seeder and
 * edge code as service_role). Checks the bucket's size limit and the BYTES' type, then inserts or
 * upserts the `storage.objects` row under the caller's role and claims (RLS decides) and writes
 * the bytes in the same transaction, so a refused row never leaves a file behind.
 */
import { createHash, randomUUID } from 'node:crypto';
import { asRole, type JwtClaims, type RequestInfo } from '../db/as-role';
import type { Database } from '../db/database';
import { StorageError, storageErrorFromDatabase } from './errors';
import { assertSafeBucketId, assertSafeObjectName } from './names';
import type { ObjectStore } from './object-store';
import { isAllowedType, normaliseMimeType, sniffContentType } from './sniff';

/** Supabase's default global limit (hosted free plan): 50 MB. */
export const DEFAULT_FILE_SIZE_LIMIT = 50 * 1024 * 1024;
export const DEFAULT_CACHE_CONTROL = 'max-age=3600';

export interface BucketInfo {
  id: string;
  public: boolean;
  fileSizeLimit: number | null;
  allowedMimeTypes: string[] | null;
}

/** The `metadata` column, in Supabase Storage's shape. */
export interface ObjectMetadata {
  eTag: string;
  size: number;
  mimetype: string;
  cacheControl: string;
  lastModified: string;
  contentLength: number;
  httpStatusCode: number;
}

export interface PutObjectInput {
  bucket: string;
  name: string;
  bytes: Uint8Array;
  /** The declared type; informative only: the stored type is what the bytes are. */
  contentType: string;
  /** `max-age=3600`, or bare seconds (`3600`, as storage-js's form field sends it). */
  cacheControl?: string;
  upsert?: boolean;
  /** Storage's `user_metadata` (storage-js `metadata` option). */
  userMetadata?: Record<string, unknown> | null;
}

export interface PutObjectResult {
  id: string;
  key: string;
  metadata: ObjectMetadata;
}

export interface PutOptions {
  /** Global cap on top of the bucket's own `file_size_limit`. */
  fileSizeLimit?: number;
  request?: RequestInfo;
}

/** Bucket configuration (not secret: read with the server's own rights, as Storage does). */
export async function findBucket(db: Database, id: string): Promise<BucketInfo> {
  assertSafeBucketId(id);
  const { rows } = await db.query<{
    id: string;
    public: boolean | null;
    file_size_limit: string | number | null;
    allowed_mime_types: string[] | null;
  }>('select id, public, file_size_limit, allowed_mime_types from storage.buckets where id = $1', [
    id,
  ]);
  const row = rows[0];
  if (!row) throw StorageError.bucketNotFound();
  return {
    id: row.id,
    public: row.public === true,
    fileSizeLimit: row.file_size_limit === null ? null : Number(row.file_size_limit),
    allowedMimeTypes: row.allowed_mime_types,
  };
}

export function normaliseCacheControl(value: string | undefined | null): string {
  const v = value?.trim();
  if (!v) return DEFAULT_CACHE_CONTROL;
  if (/^\d{1,10}$/.test(v)) return `max-age=${v}`;
  // A header value we will echo back: printable ASCII only, bounded.
  if (v.length > 200 || !/^[\x20-\x7e]+$/.test(v)) return DEFAULT_CACHE_CONTROL;
  return v;
}

export function sizeLimitOf(bucket: BucketInfo, globalLimit = DEFAULT_FILE_SIZE_LIMIT): number {
  return bucket.fileSizeLimit === null ? globalLimit : Math.min(bucket.fileSizeLimit, globalLimit);
}

/**
 * The checks of an upload that need no database: size against the limits, type from the bytes
 * (the declared type is ignored, except to name it in the refusal).
 */
export function checkUpload(
  bucket: BucketInfo,
  bytes: Uint8Array,
  declaredType: string,
  globalLimit?: number,
): { mimetype: string } {
  if (bytes.length > sizeLimitOf(bucket, globalLimit)) throw StorageError.tooLarge();
  if (bytes.length === 0) throw StorageError.noContent();
  const sniffed = sniffContentType(bytes);
  if (!sniffed || !isAllowedType(sniffed, bucket.allowedMimeTypes)) {
    throw StorageError.invalidMimeType(
      sniffed ?? (normaliseMimeType(declaredType) || 'application/octet-stream'),
    );
  }
  return { mimetype: sniffed };
}

export function etagOf(bytes: Uint8Array): string {
  return `"${createHash('md5').update(bytes).digest('hex')}"`;
}

function ownerOf(claims: JwtClaims | null): { owner: string | null; ownerId: string | null } {
  const sub = typeof claims?.sub === 'string' ? claims.sub : null;
  const isUuid = sub !== null && /^[0-9a-f]{8}-([0-9a-f]{4}-){3}[0-9a-f]{12}$/i.test(sub);
  return { owner: isUuid ? sub : null, ownerId: sub };
}

/**
 * A signed-in caller that writes a file must still exist: the access token of a deleted account
 * stays valid until it expires, and its files would belong to nobody (found by
 * tests/security/tokens.test.ts). 403 otherwise.
 */
export async function assertCallerExists(db: Database, claims: JwtClaims | null): Promise<void> {
  const { owner } = ownerOf(claims);
  if (!owner || claims?.role !== 'authenticated') return;
  const { rows } = await db.query('select 1 from auth.users where id = $1 and deleted_at is null', [
    owner,
  ]);
  if (rows.length === 0) throw StorageError.accessDenied();
}

/** Uploads as the caller (claims null = anon): RLS on storage.objects decides. */
export async function putObject(
  db: Database,
  store: ObjectStore,
  claims: JwtClaims | null,
  input: PutObjectInput,
  options: PutOptions = {},
): Promise<PutObjectResult> {
  assertSafeObjectName(input.name);
  const bucket = await findBucket(db, input.bucket);
  const { mimetype } = checkUpload(bucket, input.bytes, input.contentType, options.fileSizeLimit);
  const metadata: ObjectMetadata = {
    eTag: etagOf(input.bytes),
    size: input.bytes.length,
    mimetype,
    cacheControl: normaliseCacheControl(input.cacheControl),
    lastModified: new Date().toISOString(),
    contentLength: input.bytes.length,
    httpStatusCode: 200,
  };
  const { owner, ownerId } = ownerOf(claims);
  await assertCallerExists(db, claims);
  const version = randomUUID();
  try {
    const id = await asRole(
      db,
      claims,
      async (tx) => {
        let objectId: string;
        const values = [
          bucket.id,
          input.name,
          owner,
          ownerId,
          JSON.stringify(metadata),
          version,
          input.userMetadata ? JSON.stringify(input.userMetadata) : null,
        ];
        if (input.upsert) {
          const { rows } = await tx.query<{ id: string }>(
            `insert into storage.objects
               (bucket_id, name, owner, owner_id, metadata, version, user_metadata)
             values ($1, $2, $3, $4, $5::jsonb, $6, $7::jsonb)
             on conflict (bucket_id, name) do update
               set owner = excluded.owner, owner_id = excluded.owner_id,
                   metadata = excluded.metadata, version = excluded.version,
                   user_metadata = excluded.user_metadata,
                   updated_at = now(), last_accessed_at = now()
             returning id`,
            values,
          );
          objectId = rows[0]?.id ?? '';
        } else {
          objectId = randomUUID();
          await tx.query(
            `insert into storage.objects
               (id, bucket_id, name, owner, owner_id, metadata, version, user_metadata)
             values ($8, $1, $2, $3, $4, $5::jsonb, $6, $7::jsonb)`,
            [...values, objectId],
          );
        }
        await store.put(bucket.id, input.name, input.bytes);
        return objectId;
      },
      options.request,
    );
    return { id, key: `${bucket.id}/${input.name}`, metadata };
  } catch (err) {
    throw storageErrorFromDatabase(err) ?? err;
  }
}

/**
 * Uploads as service_role (bypasses RLS): the seeder, edge code, admin tools. Same size and
 * sniffing checks as every upload. `owner` is the user the file belongs to (or null).
 */
export async function putObjectAsService(
  db: Database,
  store: ObjectStore,
  o: {
    bucket: string;
    name: string;
    owner: string | null;
    bytes: Uint8Array;
    contentType: string;
    cacheControl?: string;
    upsert?: boolean;
  },
): Promise<void> {
  const claims: JwtClaims = { role: 'service_role', ...(o.owner ? { sub: o.owner } : {}) };
  await putObject(db, store, claims, o);
}

/** The public URL path of an object (relative to the backend's origin). */
export function publicObjectPath(bucket: string, name: string): string {
  return `/storage/v1/object/public/${encodeURIComponent(bucket)}/${encodeObjectName(name)}`;
}

/** Encodes each path segment, keeping the slashes. */
export function encodeObjectName(name: string): string {
  return name.split('/').map(encodeURIComponent).join('/');
}
