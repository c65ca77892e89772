/**
 * `/storage/v1`: Supabase Storage's object API as storage-js (supabase-js 2) calls it. Every
 * metadata query runs under the caller's role and claims (RLS on storage.objects decides);
 * bytes live in an ObjectStore. Mount with `app.route('/storage/v1', createStorageApp(...))`.
 */
import { isClientAbort } from '../lib/client-abort';
import { Hono, type Context } from 'hono';
import { cors } from 'hono/cors';
import { routePath } from 'hono/route';
import { RoleError, type JwtClaims, type RequestInfo } from '../db/as-role';
import type { Database } from '../db/database';
import { createJwtVerifier, verificationSecrets, type Keys } from '../keys';
import { authenticate } from '../rest/auth';
import { RestError } from '../rest/errors';
import { StorageError } from './errors';
import { assertSafeObjectName } from './names';
import type { ObjectStore } from './object-store';
import {
  copyObject,
  findObject,
  listObjects,
  moveObject,
  removeObjects,
  type Caller,
  type ListOptions,
} from './objects';
import { serveObject, type ServedBytes } from './serve-object';
import { findBucket, putObject, sizeLimitOf, DEFAULT_FILE_SIZE_LIMIT } from './service';
import { parseExpiresIn, signObjectUrl, verifyObjectToken } from './signed-urls';
import { readUploadBody } from './upload-body';
import { listBuckets, getBucket } from './buckets';
import { createTusServer } from './tus';

/** The buckets that hold a track's audio (original, renditions, stems). */
const AUDIO_BUCKETS = new Set(['tracks', 'renditions', 'stems']);

async function audioWithdrawn(
  db: Database,
  bucket: string,
  name: string,
  reader: string | null,
): Promise<boolean> {
  const { rows } = await db.query<{ withdrawn: boolean }>(
    'select public.signed_audio_withdrawn($1, $2, $3::uuid) as withdrawn',
    [bucket, name, reader],
  );
  return rows[0]?.withdrawn === true;
}

export interface StorageAppOptions {
  db: Database;
  keys: Pick<Keys, 'jwtSecret' | 'previousJwtSecret'>;
  store: ObjectStore;
  /** Global upload cap on top of each bucket's `file_size_limit` (default 50 MB). */
  fileSizeLimit?: number;
  /** DATA_DIR, where unfinished resumable uploads are kept ('memory': a temporary folder). */
  dataDir?: string;
  /**
   * Hears of every read through a signed URL that sends bytes: who the URL was signed for, the
   * object and the byte range. The one place where served audio is known (issue 23 counts plays
   * from it); must not throw or block.
   */
  onSignedRead?: (read: SignedRead) => void;
}

/** One answer to a signed URL that carried bytes (see `onSignedRead`). */
export interface SignedRead extends ServedBytes {
  /** The `sub` of the signed token: the user who asked for the URL (null: anon, service). */
  sub: string | null;
  bucket: string;
  name: string;
  /** Asked as a download (`&download`, storage-js `createSignedUrl(…, { download })`). */
  download: boolean;
  /** `&device=<id>`: the device a download is for (the client's offline store), if given. */
  device: string | null;
}

const EXPOSED_HEADERS = [
  // TUS (resumable uploads)
  'Location',
  'Tus-Resumable',
  'Tus-Version',
  'Tus-Extension',
  'Tus-Max-Size',
  'Upload-Offset',
  'Upload-Length',
  'Upload-Metadata',
  'Upload-Expires',
  'Accept-Ranges',
  'Cache-Control',
  'Content-Disposition',
  'Content-Length',
  'Content-Range',
  'Content-Type',
  'ETag',
  'Last-Modified',
];

/** The object name: the raw path after the route's fixed segments, each segment decoded. */
function objectName(c: Context): string {
  const fixed = routePath(c).split('/').indexOf('*');
  const segments = new URL(c.req.url).pathname.split('/').slice(fixed);
  try {
    return segments.map((s) => decodeURIComponent(s)).join('/');
  } catch {
    throw StorageError.invalidKey(segments.join('/'));
  }
}

async function jsonBody(c: Context): Promise<Record<string, unknown>> {
  try {
    const body: unknown = await c.req.json();
    if (body && typeof body === 'object' && !Array.isArray(body))
      return body as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw StorageError.invalidRequest('body must be a JSON object');
}

function stringField(body: Record<string, unknown>, key: string): string {
  const value = body[key];
  if (typeof value !== 'string' || value === '') {
    throw StorageError.invalidRequest(`Missing Required Parameter ${key}`);
  }
  return value;
}

export function createStorageApp({
  db,
  keys,
  store,
  fileSizeLimit,
  dataDir,
  onSignedRead,
}: StorageAppOptions): Hono {
  const verify = createJwtVerifier(verificationSecrets(keys));
  const globalLimit = fileSizeLimit ?? DEFAULT_FILE_SIZE_LIMIT;
  const tus = createTusServer({ db, store, verify, globalLimit, dataDir });
  const allowedRoles = new Set(['anon', 'authenticated', 'service_role']);
  const app = new Hono();

  app.use('*', cors({ origin: '*', exposeHeaders: EXPOSED_HEADERS, maxAge: 86400 }));

  const caller = async (c: Context): Promise<Caller> => {
    let claims: JwtClaims;
    try {
      ({ claims } = await authenticate(c.req.header('authorization'), c.req.header('apikey'), {
        verify,
        anonRole: 'anon',
        allowedRoles,
      }));
    } catch (err) {
      if (err instanceof RestError)
        throw new StorageError(403, 'InvalidJWT', 'Unauthorized', err.message);
      throw err;
    }
    const request: RequestInfo = { method: c.req.method, path: new URL(c.req.url).pathname };
    return { claims, request };
  };

  app.onError((err, c) => {
    if (err instanceof StorageError) return c.json(err.body(), err.httpStatus);
    if (err instanceof RoleError) {
      const e = new StorageError(403, 'AccessDenied', 'Unauthorized', err.message);
      return c.json(e.body(), e.httpStatus);
    }
    if (isClientAbort(err)) {
      const e = new StorageError(
        400,
        'InvalidRequest',
        'Bad Request',
        'The upload was not completed',
      );
      return c.json(e.body(), e.httpStatus);
    }
    console.error('[storage]', err);
    const e = StorageError.internal();
    return c.json(e.body(), e.httpStatus);
  });

  // Resumable uploads (TUS 1.0.0), as Supabase Storage serves them.
  const resumable = (c: Context) => tus.handle(c.req.raw);
  app.all('/upload/resumable', resumable);
  app.all('/upload/resumable/*', resumable);

  // Buckets (read only: buckets are created by migrations).
  app.get('/bucket', async (c) => c.json(await listBuckets(db, await caller(c))));
  app.get('/bucket/:id', async (c) =>
    c.json(await getBucket(db, await caller(c), c.req.param('id'))),
  );

  app.post('/object/list/:bucket', async (c) => {
    const body = (await jsonBody(c)) as ListOptions;
    return c.json(await listObjects(db, await caller(c), c.req.param('bucket'), body));
  });

  app.post('/object/move', async (c) => {
    const body = await jsonBody(c);
    await moveObject(db, store, await caller(c), {
      bucket: stringField(body, 'bucketId'),
      from: stringField(body, 'sourceKey'),
      to: stringField(body, 'destinationKey'),
      toBucket: typeof body.destinationBucket === 'string' ? body.destinationBucket : undefined,
    });
    return c.json({ message: 'Successfully moved' });
  });

  app.post('/object/copy', async (c) => {
    const body = await jsonBody(c);
    const { id, key } = await copyObject(db, store, await caller(c), {
      bucket: stringField(body, 'bucketId'),
      from: stringField(body, 'sourceKey'),
      to: stringField(body, 'destinationKey'),
      toBucket: typeof body.destinationBucket === 'string' ? body.destinationBucket : undefined,
      upsert: c.req.header('x-upsert') === 'true',
    });
    return c.json({ Id: id, Key: key });
  });

  // Signed URLs: one ({expiresIn} → {signedURL}) or many ({expiresIn, paths} → [...]).
  app.post('/object/sign/:bucket', async (c) => {
    const bucket = c.req.param('bucket');
    const body = await jsonBody(c);
    const expiresIn = parseExpiresIn(body.expiresIn);
    if (!Array.isArray(body.paths))
      throw StorageError.invalidRequest('Missing Required Parameter paths');
    const who = await caller(c);
    const out = [];
    for (const path of body.paths as unknown[]) {
      const name = typeof path === 'string' ? path : '';
      const row = name ? await findObject(db, who, bucket, name).catch(() => null) : null;
      out.push(
        row
          ? { error: null, path: name, signedURL: signedPath(who, bucket, name, expiresIn) }
          : {
              error: 'Either the object does not exist or you do not have access to it',
              path: name,
              signedURL: null,
            },
      );
    }
    return c.json(out);
  });
  // The token names the user who asked (`sub`): a signed URL serves as that user (docs/upload.md).
  const signedPath = (who: Caller, bucket: string, name: string, expiresIn: number) => {
    const sub = typeof who.claims?.sub === 'string' ? who.claims.sub : null;
    const token = signObjectUrl(keys.jwtSecret, bucket, name, expiresIn, sub);
    return `/object/sign/${bucket}/${name}?token=${token}`;
  };

  app.post('/object/sign/:bucket/*', async (c) => {
    const bucket = c.req.param('bucket');
    const name = objectName(c);
    const expiresIn = parseExpiresIn((await jsonBody(c)).expiresIn);
    const who = await caller(c);
    const row = await findObject(db, who, bucket, name);
    if (!row) throw StorageError.objectNotFound();
    return c.json({ signedURL: signedPath(who, bucket, name, expiresIn) });
  });

  app.get('/object/sign/:bucket/*', async (c) => {
    const bucket = c.req.param('bucket');
    const name = objectName(c);
    assertSafeObjectName(name);
    const { sub } = await verifyObjectToken(
      verificationSecrets(keys),
      c.req.query('token'),
      bucket,
      name,
    );
    const row = await findObject(db, 'service', bucket, name);
    if (!row) throw StorageError.objectNotFound();
    // A signed URL is a bearer token until it expires; the audio of a track taken down since it
    // was made (copyright removal, takedown, ban) is refused at once (docs/trust-and-safety.md).
    if (AUDIO_BUCKETS.has(bucket) && (await audioWithdrawn(db, bucket, name, sub))) {
      throw StorageError.objectNotFound();
    }
    // Every byte of audio a listener plays comes through here (the buckets of audio are private).
    const query = new URL(c.req.url).searchParams;
    const download = query.has('download');
    const device = query.get('device');
    return serveObject(c.req.raw, row, store, (served) =>
      onSignedRead?.({ sub, bucket, name, download, device, ...served }),
    );
  });

  app.get('/object/public/:bucket/*', async (c) => {
    const bucket = await findBucket(db, c.req.param('bucket'));
    const name = objectName(c);
    if (!bucket.public) throw StorageError.bucketNotFound();
    const row = await findObject(db, 'service', bucket.id, name);
    if (!row) throw StorageError.objectNotFound();
    return serveObject(c.req.raw, row, store);
  });

  const authenticatedRead = async (c: Context) => {
    const bucket = await findBucket(db, c.req.param('bucket') ?? '');
    const row = await findObject(db, await caller(c), bucket.id, objectName(c));
    if (!row) throw StorageError.objectNotFound();
    return serveObject(c.req.raw, row, store);
  };
  app.get('/object/authenticated/:bucket/*', authenticatedRead);

  app.get('/object/info/:bucket/*', async (c) => {
    const row = await findObject(db, await caller(c), c.req.param('bucket'), objectName(c));
    if (!row) throw StorageError.objectNotFound();
    const meta = row.metadata;
    return c.json({
      ...row,
      bucket_id: row.bucket_id,
      size: meta?.size ?? null,
      content_type: meta?.mimetype ?? null,
      cache_control: meta?.cacheControl ?? null,
      etag: meta?.eTag ?? null,
      last_modified: meta?.lastModified ?? null,
    });
  });

  const upload = (upsertAlways: boolean) => async (c: Context) => {
    const bucket = await findBucket(db, c.req.param('bucket') ?? '');
    const name = objectName(c);
    assertSafeObjectName(name);
    const who = await caller(c);
    const body = await readUploadBody(c.req.raw, sizeLimitOf(bucket, globalLimit));
    const result = await putObject(
      db,
      store,
      who.claims,
      {
        bucket: bucket.id,
        name,
        bytes: body.bytes,
        contentType: body.contentType,
        cacheControl: body.cacheControl,
        upsert: upsertAlways || c.req.header('x-upsert') === 'true',
        userMetadata: body.userMetadata,
      },
      { fileSizeLimit: globalLimit, request: who.request },
    );
    return c.json({ Id: result.id, Key: result.key });
  };
  app.post('/object/:bucket/*', upload(false));
  app.put('/object/:bucket/*', upload(true));

  app.delete('/object/:bucket', async (c) => {
    const body = await jsonBody(c);
    if (!Array.isArray(body.prefixes))
      throw StorageError.invalidRequest('Missing Required Parameter prefixes');
    const names = (body.prefixes as unknown[]).filter((p): p is string => typeof p === 'string');
    return c.json(await removeObjects(db, store, await caller(c), c.req.param('bucket'), names));
  });

  app.delete('/object/:bucket/*', async (c) => {
    const name = objectName(c);
    assertSafeObjectName(name);
    const rows = await removeObjects(db, store, await caller(c), c.req.param('bucket') ?? '', [
      name,
    ]);
    if (rows.length === 0) throw StorageError.objectNotFound();
    return c.json({ message: 'Successfully deleted' });
  });

  app.get('/object/:bucket/*', authenticatedRead);

  app.all('*', () => {
    throw new StorageError(404, 'NotFound', 'not_found', 'Route not found');
  });

  return app;
}
