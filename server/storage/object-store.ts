/**
 * Where object bytes live: files under `DATA_DIR/storage/<bucket>/<name>` (default), or memory
 * (`DATA_DIR=memory`, tests). Metadata and authorisation live in `storage.objects`; this layer
 * only stores bytes and never decides who may see them. Writes are atomic (temporary file +
 * rename), reads stream (an optional inclusive byte range), nothing is buffered on read.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { constants } from 'node:fs';
import { access, mkdir, rename, rm, stat, writeFile, copyFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { dirname, join, resolve, sep } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertSafeObjectName, assertSafeBucketId } from './names';

export interface ByteRange {
  /** First byte, inclusive. */
  start: number;
  /** Last byte, inclusive (as in HTTP `Range: bytes=start-end`). */
  end: number;
}

export interface StoredBytes {
  stream: ReadableStream<Uint8Array>;
  /** Size of the whole object (not of the range). */
  size: number;
}

export interface ObjectStore {
  put(bucket: string, name: string, bytes: Uint8Array): Promise<void>;
  /**
   * Writes what `body` yields without holding it in memory (disk: a temporary file renamed into
   * place; S3: a multipart upload of `partSize` parts) and resolves to its size. Nothing is
   * visible under `name` unless the whole stream was written.
   */
  putStream(bucket: string, name: string, body: Readable): Promise<number>;
  /** The object's bytes (the whole object or `range`, clamped to its size), or null if absent. */
  read(bucket: string, name: string, range?: ByteRange): Promise<StoredBytes | null>;
  /** Size in bytes, or null if absent. */
  size(bucket: string, name: string): Promise<number | null>;
  /** Removes the object; absent objects are not an error. */
  remove(bucket: string, name: string): Promise<void>;
  /** Moves bytes (overwriting the destination). Throws if the source is absent. */
  move(bucket: string, from: string, to: string, toBucket?: string): Promise<void>;
  /** Copies bytes (overwriting the destination). Throws if the source is absent. */
  copy(bucket: string, from: string, to: string, toBucket?: string): Promise<void>;
  /** Resolves when the store can be reached (for a readiness check); throws why not. */
  probe(): Promise<void>;
}

/** Moves or copies an object's bytes (the destination is overwritten). */
export type Transfer = (
  op: 'move' | 'copy',
  bucket: string,
  from: string,
  to: string,
  toBucket: string,
) => Promise<void>;

/** The `move` and `copy` of a store, from its one transfer function. */
export function moveAndCopy(transfer: Transfer): Pick<ObjectStore, 'move' | 'copy'> {
  return {
    move: (bucket, from, to, toBucket = bucket) => transfer('move', bucket, from, to, toBucket),
    copy: (bucket, from, to, toBucket = bucket) => transfer('copy', bucket, from, to, toBucket),
  };
}

export class ObjectMissingError extends Error {
  constructor(bucket: string, name: string) {
    super(`Object ${bucket}/${name} not found in the object store`);
    this.name = 'ObjectMissingError';
  }
}

/**
 * Counts the bytes that pass (`counted` once the stream ended; not `size`, which lib-storage's
 * Upload would take for the body's length).
 */
export function byteCounter(): Transform & { counted: number } {
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      counter.counted += chunk.length;
      done(null, chunk);
    },
  }) as Transform & { counted: number };
  counter.counted = 0;
  return counter;
}

/** `dataDir` is DATA_DIR: files under `<dataDir>/storage`; `'memory'` keeps bytes in memory. */
/** A whole stored object in memory (server code that decodes it), or null when absent. */
export async function readAll(
  store: ObjectStore,
  bucket: string,
  name: string,
): Promise<Uint8Array | null> {
  const stored = await store.read(bucket, name);
  return stored ? new Uint8Array(await new Response(stored.stream).arrayBuffer()) : null;
}

export function openObjectStore(dataDir: string): ObjectStore {
  return dataDir === 'memory'
    ? createMemoryObjectStore()
    : createFileObjectStore(join(dataDir, 'storage'));
}

function clampRange(range: ByteRange | undefined, size: number): ByteRange | null {
  if (!range) return null;
  const start = Math.max(0, range.start);
  const end = Math.min(size - 1, range.end);
  return { start, end };
}

export function createMemoryObjectStore(): ObjectStore {
  const objects = new Map<string, Uint8Array>();
  const key = (bucket: string, name: string) => {
    assertSafeBucketId(bucket);
    assertSafeObjectName(name);
    return `${bucket}\u0000${name}`;
  };
  const get = (bucket: string, name: string) => {
    const bytes = objects.get(key(bucket, name));
    if (!bytes) throw new ObjectMissingError(bucket, name);
    return bytes;
  };
  return {
    async put(bucket, name, bytes) {
      objects.set(key(bucket, name), new Uint8Array(bytes));
    },
    async putStream(bucket, name, body) {
      // Memory is where this store keeps everything (tests): the chunks, then the object.
      const chunks: Buffer[] = [];
      for await (const chunk of body) chunks.push(Buffer.from(chunk as Uint8Array));
      const bytes = Buffer.concat(chunks);
      objects.set(key(bucket, name), new Uint8Array(bytes));
      return bytes.length;
    },
    async read(bucket, name, range) {
      const bytes = objects.get(key(bucket, name));
      if (!bytes) return null;
      const r = clampRange(range, bytes.length);
      const slice = r ? bytes.subarray(r.start, r.end + 1) : bytes;
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          if (slice.length > 0) controller.enqueue(new Uint8Array(slice));
          controller.close();
        },
      });
      return { stream, size: bytes.length };
    },
    async size(bucket, name) {
      return objects.get(key(bucket, name))?.length ?? null;
    },
    async remove(bucket, name) {
      objects.delete(key(bucket, name));
    },
    async move(bucket, from, to, toBucket = bucket) {
      const bytes = get(bucket, from);
      objects.set(key(toBucket, to), bytes);
      if (key(bucket, from) !== key(toBucket, to)) objects.delete(key(bucket, from));
    },
    async copy(bucket, from, to, toBucket = bucket) {
      objects.set(key(toBucket, to), new Uint8Array(get(bucket, from)));
    },
    probe: async () => undefined,
  };
}

function isNotFound(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

export function createFileObjectStore(root: string): ObjectStore {
  const base = resolve(root);
  const pathOf = (bucket: string, name: string) => {
    assertSafeBucketId(bucket);
    assertSafeObjectName(name);
    const full = resolve(base, bucket, ...name.split('/'));
    // Defence in depth: names are validated above, but never leave the bucket's directory.
    if (!full.startsWith(resolve(base, bucket) + sep)) {
      throw new Error(`Object name escapes its bucket: ${name}`);
    }
    return full;
  };
  const tempFor = (target: string) =>
    join(dirname(target), `.${randomBytes(8).toString('hex')}.upload`);

  const put = async (bucket: string, name: string, bytes: Uint8Array) => {
    const target = pathOf(bucket, name);
    await mkdir(dirname(target), { recursive: true });
    const temp = tempFor(target);
    try {
      await writeFile(temp, bytes);
      await rename(temp, target);
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
  };

  const transfer: Transfer = async (op, bucket, from, to, toBucket) => {
    const source = pathOf(bucket, from);
    const target = pathOf(toBucket, to);
    if (source === target) return;
    await mkdir(dirname(target), { recursive: true });
    try {
      if (op === 'move') {
        await rename(source, target);
      } else {
        const temp = tempFor(target);
        await copyFile(source, temp);
        await rename(temp, target);
      }
    } catch (err) {
      if (isNotFound(err)) throw new ObjectMissingError(bucket, from);
      throw err;
    }
  };

  return {
    put,
    async putStream(bucket, name, body) {
      const target = pathOf(bucket, name);
      await mkdir(dirname(target), { recursive: true });
      const temp = tempFor(target);
      const counter = byteCounter();
      try {
        await pipeline(body, counter, createWriteStream(temp));
        await rename(temp, target);
      } catch (err) {
        await rm(temp, { force: true });
        throw err;
      }
      return counter.counted;
    },
    async read(bucket, name, range) {
      const path = pathOf(bucket, name);
      let size: number;
      try {
        const info = await stat(path);
        if (!info.isFile()) return null;
        size = info.size;
      } catch (err) {
        if (isNotFound(err)) return null;
        throw err;
      }
      const r = clampRange(range, size);
      if (r && r.end < r.start)
        return { stream: new ReadableStream({ start: (c) => c.close() }), size };
      const node = createReadStream(path, r ? { start: r.start, end: r.end } : {});
      const stream = Readable.toWeb(node) as unknown as ReadableStream<Uint8Array>;
      return { stream, size };
    },
    async size(bucket, name) {
      try {
        const info = await stat(pathOf(bucket, name));
        return info.isFile() ? info.size : null;
      } catch (err) {
        if (isNotFound(err)) return null;
        throw err;
      }
    },
    async remove(bucket, name) {
      await rm(pathOf(bucket, name), { force: true });
    },
    ...moveAndCopy(transfer),
    async probe() {
      await mkdir(base, { recursive: true });
      await access(base, constants.R_OK | constants.W_OK);
    },
  };
}
