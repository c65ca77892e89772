/**
 * Copies a disk object store (`DATA_DIR/storage/<bucket>/<name>`) into S3 under the same names
 * (`storage/<bucket>/<name>`), for `npm run storage:to-s3` (scripts/storage-to-s3.ts).
 * Idempotent: an object already in S3 with the file's size is left alone, so a run that stopped
 * half-way is simply run again. Every copied object's size is read back from S3 and compared.
 * Streams each file (multipart above the store's threshold); four at a time.
 */
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { HeadObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { isSafeBucketId, isSafeObjectName } from './names';
import {
  createS3ObjectStore,
  isS3NotFound,
  objectKey,
  type S3StoreConfig,
} from './s3-object-store';

export interface DiskToS3Result {
  /** Objects found on disk. */
  files: number;
  copied: number;
  /** Already in S3 with the same size. */
  skipped: number;
  bytesCopied: number;
  /** Files whose path is not a valid object name (left on disk, reported). */
  ignored: string[];
}

interface DiskObject {
  bucket: string;
  name: string;
  path: string;
  size: number;
}

/** The file store's own temporary files (object-store.ts `tempFor`): never objects. */
const TEMP_FILE = /^\.[0-9a-f]{16}\.upload$/;

async function* walk(dir: string): AsyncGenerator<string> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else if (entry.isFile() && !TEMP_FILE.test(entry.name)) yield path;
  }
}

async function diskObjects(root: string, ignored: string[]): Promise<DiskObject[]> {
  const found: DiskObject[] = [];
  for await (const path of walk(root)) {
    const [bucket = '', ...rest] = relative(root, path).split(sep);
    const name = rest.join('/');
    if (!isSafeBucketId(bucket) || !isSafeObjectName(name)) {
      ignored.push(relative(root, path));
      continue;
    }
    found.push({ bucket, name, path, size: (await stat(path)).size });
  }
  return found;
}

async function sizeInS3(client: S3Client, bucket: string, key: string): Promise<number | null> {
  try {
    const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
    return head.ContentLength ?? 0;
  } catch (error) {
    if (isS3NotFound(error)) return null;
    throw error;
  }
}

export async function copyDiskStoreToS3(options: {
  dataDir: string;
  config: S3StoreConfig;
  log?: (line: string) => void;
  concurrency?: number;
}): Promise<DiskToS3Result> {
  const { config, log = () => undefined } = options;
  const { client } = createS3ObjectStore(config).s3;
  const root = join(options.dataDir, 'storage');
  const result: DiskToS3Result = { files: 0, copied: 0, skipped: 0, bytesCopied: 0, ignored: [] };
  const objects = await diskObjects(root, result.ignored);
  result.files = objects.length;
  const total = objects.reduce((sum, o) => sum + o.size, 0);
  log(`${objects.length} objects, ${(total / 1e6).toFixed(1)} MB under ${root}`);
  for (const path of result.ignored) log(`ignored (not a valid object name): ${path}`);

  let done = 0;
  let next = 0;
  const one = async (o: DiskObject) => {
    const key = objectKey(o.bucket, o.name);
    let outcome = 'already in S3';
    if ((await sizeInS3(client, config.bucket, key)) === o.size) {
      result.skipped += 1;
    } else {
      outcome = 'copied, size checked';
      await new Upload({
        client,
        params: { Bucket: config.bucket, Key: key, Body: createReadStream(o.path) },
        partSize: Math.max(config.partSize, 5 * 1024 * 1024),
        queueSize: 2,
      }).done();
      const stored = await sizeInS3(client, config.bucket, key);
      if (stored !== o.size)
        throw new Error(`${o.bucket}/${o.name}: ${o.size} bytes on disk, ${stored} in S3`);
      result.copied += 1;
      result.bytesCopied += o.size;
    }
    done += 1;
    log(`[${done}/${objects.length}] ${o.bucket}/${o.name} (${o.size} B): ${outcome}`);
  };
  const worker = async () => {
    while (next < objects.length) {
      const o = objects[next++] as DiskObject;
      await one(o);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 4 }, worker));
  log(
    `done: ${result.copied} copied (${(result.bytesCopied / 1e6).toFixed(1)} MB), ${result.skipped} already in S3 with the same size, ${result.ignored.length} ignored`,
  );
  return result;
}
