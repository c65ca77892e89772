/**
 * `/storage/v1/upload/resumable`: resumable uploads over TUS 1.0.0, as Supabase Storage serves
 * them (it runs the same `@tus/server`): creation (with upload during creation), HEAD, PATCH,
 * termination, 24 h expiration. Metadata `bucketName`, `objectName`, `contentType`,
 * `cacheControl`; header `x-upsert`. The caller's JWT is checked on every request; an upload
 * belongs to whoever created it. Creation is refused early (size over the limit, a path the
 * caller may not write, an existing name without upsert); the finished bytes take the same path
 * as every other upload (`putObject`: the bytes' type sniffed, the row inserted under RLS).
 *
 * Where unfinished uploads live: on disk, `@tus/file-store` under DATA_DIR/tus with @tus/server's
 * MemoryLocker (one process). With the object store on S3, `@tus/s3-store` keeps each upload as an
 * S3 multipart upload under `tus/<id>` (+ `tus/<id>.info`, and `tus/<id>.part` for a tail shorter
 * than S3's 5 MiB minimum part) in the same bucket, nothing on the node but scratch files of the
 * request in flight, no metadata cache (every request reads `.info`), and the locks are in
 * PostgreSQL (upload-locker.ts): any node may receive any request of an upload.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeleteObjectsCommand } from '@aws-sdk/client-s3';
import { FileStore } from '@tus/file-store';
import { S3Store } from '@tus/s3-store';
import { EVENTS, Server, type ServerOptions } from '@tus/server';
import type { DataStore, KvStore } from '@tus/utils';
import type { JwtClaims } from '../db/as-role';
import { asRole } from '../db/as-role';
import type { Database } from '../db/database';
import { authenticate } from '../rest/auth';
import { StorageError, storageErrorFromDatabase } from './errors';
import { assertSafeObjectName } from './names';
import type { ObjectStore } from './object-store';
import { isS3ObjectStore, type S3ObjectStore } from './s3-object-store';
import { findBucket, putObject, sizeLimitOf } from './service';
import { createUploadLocker, type UploadLocker } from './upload-locker';

export const TUS_PATH = '/storage/v1/upload/resumable';
/** Unfinished uploads are kept this long (Supabase: 24 hours). */
const EXPIRE_MS = 24 * 60 * 60 * 1000;

export interface TusOptions {
  db: Database;
  store: ObjectStore;
  verify: (token: string) => Promise<JwtClaims>;
  globalLimit: number;
  /** DATA_DIR: partial uploads live in DATA_DIR/tus (a temporary folder for `memory`). */
  dataDir?: string;
}

/** A TUS hook error: the status and Storage's JSON body. */
function refusal(error: StorageError): { status_code: number; body: string } {
  return { status_code: error.statusCode, body: JSON.stringify(error.body()) };
}

function fail(error: unknown): never {
  if (error instanceof StorageError) throw refusal(error);
  const mapped = storageErrorFromDatabase(error);
  if (mapped) throw refusal(mapped);
  throw error;
}

function uploadsDir(dataDir: string | undefined): { dir: string; temporary: boolean } {
  if (!dataDir || dataDir === 'memory') {
    return { dir: join(tmpdir(), `soundloft-tus-${process.pid}-${randomUUID()}`), temporary: true };
  }
  return { dir: join(dataDir, 'tus'), temporary: false };
}

/** No cache: another node may have changed the upload since this one last read its `.info`. */
const noCache: KvStore<never> = {
  get: async () => undefined,
  set: async () => undefined,
  delete: async () => undefined,
};

/** S3 keys of unfinished uploads: `tus/<id>`; the id in the upload URL has no prefix. */
const S3_PREFIX = 'tus/';

interface UploadsPlace {
  datastore: DataStore;
  /** A finished upload's bytes. */
  bytesOf: (id: string) => Promise<Buffer>;
  /** Deletes everything kept of an upload (finished or not). */
  discard: (id: string) => Promise<void>;
  /** Server options of this place (S3: ids under `tus/`, shared locks). */
  serverOptions: Partial<ServerOptions>;
  close: () => Promise<void>;
}

function onDisk(dataDir: string | undefined): UploadsPlace {
  const { dir, temporary } = uploadsDir(dataDir);
  mkdirSync(dir, { recursive: true });
  const datastore = new FileStore({ directory: dir, expirationPeriodInMilliseconds: EXPIRE_MS });
  return {
    datastore,
    bytesOf: (id) => readFile(join(dir, id)),
    discard: (id) => datastore.remove(id),
    serverOptions: {},
    close: async () => {
      if (temporary) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** S3Store whose termination also deletes the upload's tail `.part` (2.0.7's `remove` leaves it). */
class S3UploadStore extends S3Store {
  override async remove(id: string): Promise<void> {
    try {
      await super.remove(id);
    } finally {
      await this.deleteIncompletePart(id).catch(() => undefined);
    }
  }
}

function onS3(store: S3ObjectStore, db: Database): UploadsPlace {
  // Made on the first resumable request: a process that serves none opens no LISTEN connection.
  let locker: Promise<UploadLocker> | null = null;
  const lockerOf = () => (locker ??= createUploadLocker(db));
  const { config, clientConfig, client } = store.s3;
  const datastore = new S3UploadStore({
    partSize: config.partSize,
    expirationPeriodInMilliseconds: EXPIRE_MS,
    // Expiry by listing the multipart uploads, not by object tags (R2 and others have none).
    useTags: false,
    cache: noCache,
    s3ClientConfig: { ...clientConfig, bucket: config.bucket },
  });
  return {
    datastore,
    bytesOf: async (id) => Buffer.concat(await (await datastore.read(id)).toArray()),
    // S3Store.remove aborts the multipart upload first, which fails once it has completed.
    discard: async (id) => {
      await client.send(
        new DeleteObjectsCommand({
          Bucket: config.bucket,
          Delete: { Objects: [id, `${id}.info`, `${id}.part`].map((Key) => ({ Key })) },
        }),
      );
    },
    serverOptions: {
      locker: lockerOf,
      generateUrl: (_req, { proto, host, path, id }) =>
        `${proto}://${host}${path}/${id.slice(S3_PREFIX.length)}`,
      getFileIdFromRequest: (_req, lastPath) =>
        lastPath && /^[A-Za-z0-9_-]+$/.test(lastPath) ? `${S3_PREFIX}${lastPath}` : undefined,
    },
    close: async () => (await locker)?.close(),
  };
}

export function createTusServer(options: TusOptions): {
  handle: (request: Request) => Promise<Response>;
  close: () => Promise<void>;
} {
  const { db, store, verify, globalLimit } = options;
  const s3 = isS3ObjectStore(store);
  const place = s3 ? onS3(store, db) : onDisk(options.dataDir);
  const { datastore } = place;

  const claimsOf = async (req: Request): Promise<JwtClaims> => {
    try {
      const { claims } = await authenticate(
        req.headers.get('authorization') ?? undefined,
        req.headers.get('apikey') ?? undefined,
        {
          verify,
          anonRole: 'anon',
          allowedRoles: new Set(['anon', 'authenticated', 'service_role']),
        },
      );
      return claims;
    } catch {
      throw refusal(new StorageError(403, 'InvalidJWT', 'Unauthorized', 'Invalid JWT'));
    }
  };
  const subOf = (claims: JwtClaims): string =>
    typeof claims.sub === 'string' ? claims.sub : String(claims.role ?? 'anon');

  /** May this caller create this object? Tried as the caller in a transaction rolled back. */
  const checkWritable = async (
    claims: JwtClaims,
    bucket: string,
    name: string,
    upsert: boolean,
  ) => {
    const rollback = new Error('rollback');
    try {
      // Existence is the server's view (RLS would hide another user's object from the caller).
      const existing = await db.query(
        'select 1 from storage.objects where bucket_id = $1 and name = $2',
        [bucket, name],
      );
      if (existing.rows.length > 0 && !upsert) throw StorageError.alreadyExists();
      await asRole(db, claims, async (tx) => {
        await tx.query(
          `insert into storage.objects (bucket_id, name, owner_id) values ($1, $2, $3)
           on conflict (bucket_id, name) do update set owner_id = excluded.owner_id`,
          [bucket, name, subOf(claims)],
        );
        throw rollback;
      });
    } catch (error) {
      if (error !== rollback) fail(error);
    }
  };

  const server = new Server({
    ...place.serverOptions,
    path: TUS_PATH,
    datastore,
    respectForwardedHeaders: true,
    allowedHeaders: ['apikey', 'x-upsert', 'x-client-info'],
    exposedHeaders: [],
    maxSize: globalLimit,
    namingFunction: (_req, metadata) =>
      (s3 ? S3_PREFIX : '') +
      Buffer.from(
        `${metadata?.bucketName ?? ''}/${metadata?.objectName ?? ''}/${randomUUID()}`,
      ).toString('base64url'),
    onResponseError(_req, err) {
      if (!(err instanceof Error)) return undefined;
      console.error('[storage] resumable upload:', err);
      return undefined;
    },
    async onIncomingRequest(req, id) {
      const claims = await claimsOf(req as unknown as Request);
      const upload = await datastore.getUpload(id).catch(() => null);
      if (upload && upload.metadata?.owner !== subOf(claims)) {
        throw refusal(
          new StorageError(
            403,
            'AccessDenied',
            'Unauthorized',
            'This upload belongs to someone else',
          ),
        );
      }
    },
    async onUploadCreate(req, upload) {
      const claims = await claimsOf(req as unknown as Request);
      const md = upload.metadata ?? {};
      const bucketName = md.bucketName ?? '';
      const objectName = md.objectName ?? '';
      if (!bucketName) fail(StorageError.invalidRequest('Missing Required Parameter bucketName'));
      if (!objectName) fail(StorageError.invalidRequest('Missing Required Parameter objectName'));
      try {
        assertSafeObjectName(objectName);
        const bucket = await findBucket(db, bucketName);
        if (upload.size !== undefined && upload.size > sizeLimitOf(bucket, globalLimit))
          throw StorageError.tooLarge();
        const upsert = (req as unknown as Request).headers.get('x-upsert') === 'true';
        await checkWritable(claims, bucket.id, objectName, upsert);
        return { metadata: { ...md, owner: subOf(claims), upsert: upsert ? 'true' : 'false' } };
      } catch (error) {
        fail(error);
      }
    },
    async onUploadFinish(req, upload) {
      const claims = await claimsOf(req as unknown as Request);
      const md = upload.metadata ?? {};
      try {
        const bytes = await place.bytesOf(upload.id);
        await putObject(
          db,
          store,
          claims,
          {
            bucket: md.bucketName ?? '',
            name: md.objectName ?? '',
            bytes,
            contentType: md.contentType ?? 'application/octet-stream',
            cacheControl: md.cacheControl ?? undefined,
            upsert: md.upsert === 'true',
          },
          { fileSizeLimit: globalLimit },
        );
      } catch (error) {
        await place.discard(upload.id).catch(() => undefined);
        fail(error);
      }
      // The finished upload's partial file goes once the answer is written (POST_FINISH below):
      // after this hook, @tus/server's POST (creation with the whole body) reads the upload again
      // and would answer 404 'The file for this url was not found' had it gone already.
      return {};
    },
  });
  server.on(EVENTS.POST_FINISH, (_req, _res, upload) => {
    void place.discard(upload.id).catch(() => undefined);
  });

  const sweep = setInterval(
    () => void server.cleanUpExpiredUploads().catch(() => undefined),
    60 * 60 * 1000,
  );
  sweep.unref();

  return {
    handle: (request) => server.handleWeb(request),
    close: async () => {
      clearInterval(sweep);
      await place.close();
    },
  };
}
