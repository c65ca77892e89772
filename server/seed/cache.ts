/**
 * A cache of generated tracks outside DATA_DIR (the OS temp dir by default). Generation is
 * deterministic, so a fresh database (a reseed, `DATA_DIR=memory`, every e2e run) reuses the
 * bytes of an earlier run instead of synthesising 25 minutes of audio again. The directory hashes
 * the generator's source and the encoder's version (any change starts a new cache); each file
 * name hashes its job (track, genre, length, seed).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Rendition } from '../processing/process-audio';
import type { SeedProcessed, TrackAudio, TrackJob } from './media';

export const DEFAULT_CACHE_ROOT = join(tmpdir(), 'soundloft-seed-cache');

/** What decides a track's bytes besides its job: the synthesiser, the encoding, the PRNG, processing. */
const GENERATOR_SOURCES = [
  'media.ts',
  'mp3.ts',
  'prng.ts',
  'music',
  ...['process-audio', 'decode', 'encode-mp3', 'inspect', 'loudness', 'peaks'].map(
    (f) => `../processing/${f}.ts`,
  ),
];
/** The packages those sources run (their versions go into the key). */
const GENERATOR_PACKAGES = [
  'wasm-media-encoders',
  'mpg123-decoder',
  'ebur128-wasm',
  'music-metadata',
];

function sourceFiles(path: string): string[] {
  if (path.endsWith('.ts')) return [path];
  return readdirSync(path, { withFileTypes: true })
    .filter((e) => e.isDirectory() || (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')))
    .flatMap((e) => sourceFiles(join(path, e.name)))
    .sort();
}

/** A package's version, from its package.json in the node_modules folders Node would search. */
function packageVersion(name: string): string {
  for (const dir of createRequire(import.meta.url).resolve.paths(name) ?? []) {
    try {
      return (
        JSON.parse(readFileSync(join(dir, name, 'package.json'), 'utf8')) as { version: string }
      ).version;
    } catch {
      // not in this folder
    }
  }
  throw new Error(`package ${name} not found`);
}

let cachedKey: string | null = null;

/** Hash of the generator's sources and its packages' versions. */
export function generatorKey(): string {
  if (cachedKey) return cachedKey;
  const hash = createHash('sha256');
  const here = dirname(fileURLToPath(import.meta.url));
  for (const file of GENERATOR_SOURCES.flatMap((p) => sourceFiles(join(here, p)))) {
    hash.update(file.slice(here.length)).update(readFileSync(file));
  }
  for (const name of GENERATOR_PACKAGES) hash.update(`${name}@${packageVersion(name)}`);
  cachedKey = hash.digest('hex').slice(0, 16);
  return cachedKey;
}

/** A rendition in the cache's JSON: the original, none, or its own file. */
type CachedRendition = 'original' | 'file' | null;
type CachedMeta = Omit<TrackAudio, 'mp3' | 'processed'> & {
  processed:
    | (Omit<SeedProcessed, 'standard' | 'high'> & {
        standard: CachedRendition;
        high: CachedRendition;
      })
    | null;
};

export class TrackCache {
  readonly dir: string;

  constructor(root: string) {
    this.dir = join(root, generatorKey());
  }

  #file(job: TrackJob, ext: string): string {
    const id = createHash('sha256')
      .update(JSON.stringify([job.key, job.genre, job.seconds, job.seed]))
      .digest('hex');
    return join(this.dir, `${id.slice(0, 24)}.${ext}`);
  }

  get(job: TrackJob): TrackAudio | null {
    try {
      const json = readFileSync(this.#file(job, 'json'), 'utf8');
      const meta = JSON.parse(json) as CachedMeta;
      if (meta.key !== job.key || !meta.processed) return null;
      const mp3 = new Uint8Array(readFileSync(this.#file(job, 'mp3')));
      const rendition = (value: CachedRendition, name: string): Rendition | null =>
        value === 'file' ? new Uint8Array(readFileSync(this.#file(job, name))) : value;
      const { standard, high, ...rest } = meta.processed;
      const processed = {
        ...rest,
        standard: rendition(standard, 'standard.mp3') as Rendition,
        high: rendition(high, 'high.mp3'),
      };
      return { ...meta, mp3, processed };
    } catch {
      return null;
    }
  }

  /** Best effort: a cache that cannot be written is only slower next time. */
  put(job: TrackJob, audio: TrackAudio): void {
    try {
      mkdirSync(this.dir, { recursive: true });
      const { mp3, processed, ...rest } = audio;
      if (!processed) return;
      const tmp = `.${process.pid}.tmp`;
      const write = (ext: string, data: Uint8Array | string) => {
        writeFileSync(this.#file(job, ext) + tmp, data);
        renameSync(this.#file(job, ext) + tmp, this.#file(job, ext));
      };
      const rendition = (value: Rendition | null, name: string): CachedRendition => {
        if (!(value instanceof Uint8Array)) return value;
        write(name, value);
        return 'file';
      };
      write('mp3', mp3);
      const meta: CachedMeta = {
        ...rest,
        processed: {
          ...processed,
          standard: rendition(processed.standard, 'standard.mp3') ?? 'original',
          high: rendition(processed.high, 'high.mp3'),
        },
      };
      write('json', JSON.stringify(meta)); // last: a track is cached once its JSON exists
    } catch {
      // ignore
    }
  }

  /** Removes caches of other generator versions. */
  prune(): void {
    try {
      const root = dirname(this.dir);
      for (const entry of readdirSync(root)) {
        if (join(root, entry) !== this.dir)
          rmSync(join(root, entry), { recursive: true, force: true });
      }
    } catch {
      // ignore
    }
  }
}
