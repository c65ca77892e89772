/**
 * The ObjectStore on S3-compatible object storage (AWS S3, Cloudflare R2, MinIO, Ceph RGW,
 * Supabase Storage's S3 endpoint), with the official `@aws-sdk/client-s3`. One S3 bucket holds
 * everything: `storage/<bucket>/<name>` for Storage's objects (as `DATA_DIR/storage/…` on disk) and
 * `tus/<id>` for unfinished resumable uploads (server/storage/tus.ts). docs/object-storage.md.
 *
 * Reads stream: a Range read is one GetObject with that Range, so only the range crosses the
 * network. Writes above `multipartThreshold` go up as a multipart upload (`@aws-sdk/lib-storage`);
 * move and copy are CopyObject (+ DeleteObject), done inside the object store.
 */
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { assertSafeBucketId, assertSafeObjectName } from './names';
import {
  byteCounter,
  moveAndCopy,
  ObjectMissingError,
  type ObjectStore,
  type Transfer,
} from './object-store';

export interface S3StoreConfig {
  /** `S3_ENDPOINT`; unset: AWS S3 of `region`. */
  endpoint?: string;
  /** `S3_REGION` (R2: `auto`). */
  region: string;
  /** `S3_BUCKET`: the one bucket that holds every object. */
  bucket: string;
  /** `S3_ACCESS_KEY_ID` / `S3_SECRET_ACCESS_KEY`; unset: the SDK's default credential chain. */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** `S3_FORCE_PATH_STYLE`: `endpoint/bucket/key` instead of `bucket.endpoint/key`. */
  forcePathStyle: boolean;
  /** Bodies larger than this go up as a multipart upload (`S3_MULTIPART_THRESHOLD`, 8 MiB). */
  multipartThreshold: number;
  /** The size of each part of a multipart upload (`S3_PART_SIZE`, 8 MiB; S3's minimum is 5 MiB). */
  partSize: number;
}

export const DEFAULT_MULTIPART_THRESHOLD = 8 * 1024 * 1024;
const MIN_PART_SIZE = 5 * 1024 * 1024;

/** An ObjectStore on S3; `s3` tells other parts (TUS) where the bytes live. */
export interface S3ObjectStore extends ObjectStore {
  readonly s3: { config: S3StoreConfig; clientConfig: S3ClientConfig; client: S3Client };
}

export function isS3ObjectStore(store: ObjectStore): store is S3ObjectStore {
  return 's3' in store && typeof (store as Partial<S3ObjectStore>).s3 === 'object';
}

/** The SDK's configuration for `config` (also what @tus/s3-store is given). */
export function s3ClientConfig(config: S3StoreConfig): S3ClientConfig {
  return {
    region: config.region,
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    forcePathStyle: config.forcePathStyle,
    ...(config.accessKeyId && config.secretAccessKey
      ? {
          credentials: {
            accessKeyId: config.accessKeyId,
            secretAccessKey: config.secretAccessKey,
          },
        }
      : {}),
    // Checksums only where S3 requires them: the SDK's default since 3.729 (CRC32 trailers on
    // every upload, sent `aws-chunked`) is refused by several S3-compatible stores and by s3rver.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  };
}

/** The key of a Storage object in the S3 bucket. */
export function objectKey(bucket: string, name: string): string {
  assertSafeBucketId(bucket);
  assertSafeObjectName(name);
  return `storage/${bucket}/${name}`;
}

/** `x-amz-copy-source`: `<bucket>/<key>`, each key segment URL-encoded. */
function copySource(bucket: string, key: string): string {
  return `${bucket}/${key.split('/').map(encodeURIComponent).join('/')}`;
}

function errorName(error: unknown): string | undefined {
  const e = error as { name?: unknown; Code?: unknown } | null;
  return typeof e?.name === 'string' ? e.name : typeof e?.Code === 'string' ? e.Code : undefined;
}

export function isS3NotFound(error: unknown): boolean {
  const name = errorName(error);
  if (name === 'NoSuchKey' || name === 'NotFound') return true;
  return (error as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode === 404;
}

const emptyStream = () => new ReadableStream<Uint8Array>({ start: (c) => c.close() });

export function createS3ObjectStore(config: S3StoreConfig): S3ObjectStore {
  const clientConfig = s3ClientConfig(config);
  const client = new S3Client(clientConfig);
  const Bucket = config.bucket;
  const partSize = Math.max(config.partSize, MIN_PART_SIZE);

  const size = async (bucket: string, name: string): Promise<number | null> => {
    try {
      const head = await client.send(
        new HeadObjectCommand({ Bucket, Key: objectKey(bucket, name) }),
      );
      return head.ContentLength ?? 0;
    } catch (error) {
      if (isS3NotFound(error)) return null;
      throw error;
    }
  };

  const transfer: Transfer = async (op, bucket, from, to, toBucket) => {
    const source = objectKey(bucket, from);
    const target = objectKey(toBucket, to);
    if (source === target) {
      if ((await size(bucket, from)) === null) throw new ObjectMissingError(bucket, from);
      return;
    }
    try {
      // CopyObject copies up to 5 GB in one request, far above every bucket's limit here.
      await client.send(
        new CopyObjectCommand({ Bucket, Key: target, CopySource: copySource(Bucket, source) }),
      );
    } catch (error) {
      if (isS3NotFound(error)) throw new ObjectMissingError(bucket, from);
      throw error;
    }
    if (op === 'move') await client.send(new DeleteObjectCommand({ Bucket, Key: source }));
  };

  return {
    s3: { config, clientConfig, client },
    async put(bucket, name, bytes) {
      const Key = objectKey(bucket, name);
      const Body = bytes;
      if (bytes.length > config.multipartThreshold) {
        await new Upload({ client, params: { Bucket, Key, Body }, partSize, queueSize: 4 }).done();
      } else {
        await client.send(new PutObjectCommand({ Bucket, Key, Body, ContentLength: bytes.length }));
      }
    },
    async putStream(bucket, name, body) {
      // A multipart upload of `partSize` parts (lib-storage holds at most queueSize of them);
      // S3 makes the object visible only when the upload completes.
      const counter = byteCounter();
      const Body = body.pipe(counter);
      body.on('error', (error) => counter.destroy(error));
      await new Upload({
        client,
        params: { Bucket, Key: objectKey(bucket, name), Body },
        partSize,
        queueSize: 2,
      }).done();
      return counter.counted;
    },
    async read(bucket, name, range) {
      const Key = objectKey(bucket, name);
      const Range = range ? `bytes=${Math.max(0, range.start)}-${range.end}` : undefined;
      try {
        const got = await client.send(new GetObjectCommand({ Bucket, Key, Range }));
        const total = got.ContentRange ? Number(got.ContentRange.split('/')[1]) : undefined;
        const whole = total ?? got.ContentLength ?? 0;
        const stream = got.Body
          ? (got.Body.transformToWebStream() as ReadableStream<Uint8Array>)
          : emptyStream();
        return { stream, size: whole };
      } catch (error) {
        if (isS3NotFound(error)) return null;
        // A range past the end (an empty object): the file store answers no bytes, so does this.
        if (errorName(error) === 'InvalidRange') {
          const whole = await size(bucket, name);
          return whole === null ? null : { stream: emptyStream(), size: whole };
        }
        throw error;
      }
    },
    size,
    async remove(bucket, name) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: objectKey(bucket, name) }));
    },
    ...moveAndCopy(transfer),
    async probe() {
      await client.send(new HeadBucketCommand({ Bucket }));
    },
  };
}
