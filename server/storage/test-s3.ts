/**
 * A real S3-protocol server for the tests and the bench: `@20minutes/s3rver` (npm), started
 * in-process on a free loopback port with a temporary directory; it checks every request's SigV4
 * signature (object-store.test.ts proves a wrong secret is refused).
 *
 * Why the fork and not `s3rver` 3.7.1: that one checks only V2 signatures (its V4 branch accepts
 * any signature of a known key id: "Signature version 4 calculation is unimplemented"), and the
 * SDK signs V4. The fork (kept; 5.0.0 of Sept. 2026) declares Node >= 24 but runs on Node 20.
 *
 * Neither answers ListParts, AbortMultipartUpload nor ListMultipartUploads, which @tus/s3-store
 * needs (the offset of a resumed upload is the sum of its parts; termination and expiry abort),
 * and no kept S3 server on npm that runs here has them (fauxqs: Node >= 22.5, no ListParts, no
 * signature check). These three are answered here, from s3rver's own files of multipart uploads
 * (`<dir>/<bucket>/._S3rver_uploads/<uploadId>/{key,<part>,<part>.md5}`), after s3rver's own
 * signature check. Everything else is s3rver's. docs/object-storage.md.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile, readdir, rm, stat } from 'node:fs/promises';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { S3StoreConfig } from './s3-object-store';

const require = createRequire(import.meta.url);

interface KoaContext {
  method: string;
  path: string;
  query: Record<string, string | string[] | undefined>;
  params: Record<string, string | undefined>;
  state: Record<string, unknown>;
  status: number;
  type: string;
  body: unknown;
}
type Middleware = (ctx: KoaContext, next: () => Promise<void>) => Promise<void>;
interface S3rverInstance {
  middleware: Middleware[];
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
  httpServer: Server;
}
type S3rverClass = new (options: Record<string, unknown>) => S3rverInstance;
type S3ErrorClass = new (code: string, message?: string) => Error;

/**
 * s3rver's signature check, mended for the bucket-level requests of SDK v3 (DeleteObjects,
 * ListMultipartUploads): v3 sends `/<bucket>/?delete` and signs the path with its slash, s3rver
 * computes `/<bucket>` (what SDK v2 sent) and refuses a valid signature. The check sees the bucket
 * with its slash; everything after it sees the bucket name. Installed in require's cache before
 * s3rver's router loads it.
 */
const authPath = require.resolve('@20minutes/s3rver/lib/middleware/authentication');
const s3rverAuthentication = require(authPath) as () => Middleware;
const authentication = (): Middleware => {
  const check = s3rverAuthentication();
  return async (ctx, next) => {
    const bucket = ctx.params.bucket;
    if (!bucket || ctx.params.key || ctx.path !== `/${bucket}/`) return check(ctx, next);
    ctx.params.bucket = `${bucket}/`;
    await check(ctx, async () => {
      ctx.params.bucket = bucket;
      await next();
    });
  };
};
(require.cache[authPath] as NodeJS.Module).exports = authentication;
const S3rver = require('@20minutes/s3rver') as S3rverClass;
const S3Error = require('@20minutes/s3rver/lib/models/error') as S3ErrorClass;

/** s3rver's one account. */
export const TEST_S3_ACCESS_KEY = 'S3RVER';
export const TEST_S3_SECRET_KEY = 'S3RVER';

export interface TestS3Server {
  endpoint: string;
  bucket: string;
  /** The environment that points Soundloft at this server. */
  env: Record<string, string>;
  /** The object store configuration for it (multipart from 5 MiB: the smallest S3 allows). */
  config: S3StoreConfig;
  /** Bytes this server has written to its sockets so far (headers included). */
  bytesSent(): number;
  close(): Promise<void>;
}

const xmlEscape = (s: string) => s.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
const xml = (root: string, inner: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<${root} xmlns="http://s3.amazonaws.com/doc/2006-03-01/">${inner}</${root}>`;

/** ListParts, AbortMultipartUpload, ListMultipartUploads over s3rver's files (see above). */
function multipartExtension(directory: string): Middleware {
  const authenticate = authentication();
  const uploadsOf = (bucket: string) => join(directory, bucket, '._S3rver_uploads');
  const noSuchUpload = () =>
    new S3Error(
      'NoSuchUpload',
      'The specified upload does not exist. The upload ID may be invalid, or the upload may have been aborted or completed.',
    );
  const uploadDir = async (bucket: string, uploadId: string) => {
    if (!/^[0-9a-f]+$/.test(uploadId)) throw noSuchUpload();
    const dir = join(uploadsOf(bucket), uploadId);
    if (!(await stat(dir).catch(() => null))) throw noSuchUpload();
    return dir;
  };

  const listParts = async (ctx: KoaContext, bucket: string, key: string, uploadId: string) => {
    const dir = await uploadDir(bucket, uploadId);
    const marker = Number(ctx.query['part-number-marker'] ?? 0) || 0;
    const numbers = (await readdir(dir))
      .filter((f) => /^\d+$/.test(f))
      .map(Number)
      .filter((n) => n > marker)
      .sort((a, b) => a - b);
    const parts = await Promise.all(
      numbers.map(async (n) => {
        const info = await stat(join(dir, String(n)));
        const md5 = (await readFile(join(dir, `${n}.md5`), 'utf8')).trim();
        return `<Part><PartNumber>${n}</PartNumber><LastModified>${info.mtime.toISOString()}</LastModified><ETag>"${md5}"</ETag><Size>${info.size}</Size></Part>`;
      }),
    );
    ctx.type = 'application/xml';
    ctx.body = xml(
      'ListPartsResult',
      `<Bucket>${xmlEscape(bucket)}</Bucket><Key>${xmlEscape(key)}</Key><UploadId>${uploadId}</UploadId>` +
        `<PartNumberMarker>${marker}</PartNumberMarker><NextPartNumberMarker>${numbers.at(-1) ?? marker}</NextPartNumberMarker>` +
        `<MaxParts>10000</MaxParts><IsTruncated>false</IsTruncated>${parts.join('')}`,
    );
  };

  const listUploads = async (ctx: KoaContext, bucket: string) => {
    const ids = await readdir(uploadsOf(bucket)).catch(() => [] as string[]);
    const uploads = await Promise.all(
      ids.map(async (id) => {
        const dir = join(uploadsOf(bucket), id);
        const key = await readFile(join(dir, 'key'), 'utf8').catch(() => null);
        if (key === null) return '';
        const initiated = (await stat(dir)).birthtime.toISOString();
        return `<Upload><Key>${xmlEscape(key)}</Key><UploadId>${id}</UploadId><Initiated>${initiated}</Initiated></Upload>`;
      }),
    );
    ctx.type = 'application/xml';
    ctx.body = xml(
      'ListMultipartUploadsResult',
      `<Bucket>${xmlEscape(bucket)}</Bucket><IsTruncated>false</IsTruncated>${uploads.join('')}`,
    );
  };

  return async (ctx, next) => {
    const match = /^\/([^/]+)(?:\/(.+))?$/.exec(ctx.path);
    const uploadId = typeof ctx.query.uploadId === 'string' ? ctx.query.uploadId : undefined;
    if (!match?.[1]) return next();
    const bucket = decodeURIComponent(match[1]);
    const key = match[2] ? match[2].split('/').map(decodeURIComponent).join('/') : undefined;
    let handle: (() => Promise<void>) | null = null;
    if (ctx.method === 'GET' && key && uploadId)
      handle = () => listParts(ctx, bucket, key, uploadId);
    else if (ctx.method === 'DELETE' && key && uploadId)
      handle = async () => {
        await rm(await uploadDir(bucket, uploadId), { recursive: true, force: true });
        ctx.status = 204;
      };
    else if (ctx.method === 'GET' && !key && 'uploads' in ctx.query)
      handle = () => listUploads(ctx, bucket);
    if (!handle) return next();
    ctx.params = { bucket, ...(key ? { key } : {}) };
    await authenticate(ctx, handle);
  };
}

/** Starts s3rver on a free loopback port with a fresh directory and one empty bucket. */
export async function startTestS3Server(bucket = 'soundloft'): Promise<TestS3Server> {
  const directory = mkdtempSync(join(tmpdir(), 'soundloft-s3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
    vhostBuckets: false,
  });
  server.middleware.unshift(multipartExtension(directory));
  const address = await server.run();
  let closedBytes = 0;
  const open = new Set<Socket>();
  server.httpServer.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.on('close', () => {
      closedBytes += socket.bytesWritten;
      open.delete(socket);
    });
  });
  const endpoint = `http://127.0.0.1:${address.port}`;
  const threshold = 5 * 1024 * 1024;
  return {
    endpoint,
    bucket,
    env: {
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_BUCKET: bucket,
      S3_ACCESS_KEY_ID: TEST_S3_ACCESS_KEY,
      S3_SECRET_ACCESS_KEY: TEST_S3_SECRET_KEY,
      S3_FORCE_PATH_STYLE: 'true',
      S3_MULTIPART_THRESHOLD: String(threshold),
    },
    config: {
      endpoint,
      region: 'us-east-1',
      bucket,
      accessKeyId: TEST_S3_ACCESS_KEY,
      secretAccessKey: TEST_S3_SECRET_KEY,
      forcePathStyle: true,
      multipartThreshold: threshold,
      partSize: threshold,
    },
    bytesSent: () => closedBytes + [...open].reduce((sum, s) => sum + s.bytesWritten, 0),
    close: async () => {
      for (const socket of open) socket.destroy();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
