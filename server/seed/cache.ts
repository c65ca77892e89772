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
import type { TrackAudio, TrackJob } from './media';

export const DEFAULT_CACHE_ROOT = join(tmpdir(), 'soundloft-seed-cache');

/** What decides a track's bytes besides its job: the synthesiser, the encoding, the PRNG. */
const GENERATOR_SOURCES = ['media.ts', 'mp3.ts', 'prng.ts', 'music'];

function sourceFiles(path: string): string[] {
  if (path.endsWith('.ts')) return [path];
  return readdirSync(path, { withFileTypes: true })
    .filter((e) => e.isDirectory() || (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')))
    .flatMap((e) => sourceFiles(join(path, e.name)))
    .sort();
}

let cachedKey: string | null = null;

/** Hash of the generator's sources and lamejs's package.json. */
export function generatorKey(): string {
  if (cachedKey) return cachedKey;
  const hash = createHash('sha256');
  const here = dirname(fileURLToPath(import.meta.url));
  for (const file of GENERATOR_SOURCES.flatMap((p) => sourceFiles(join(here, p)))) {
    hash.update(file.slice(here.length)).update(readFileSync(file));
  }
  const lame = createRequire(import.meta.url).resolve('@breezystack/lamejs');
  hash.update(readFileSync(join(dirname(lame), '..', 'package.json')));
  cachedKey = hash.digest('hex').slice(0, 16);
  return cachedKey;
}

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
      const meta = JSON.parse(json) as Omit<TrackAudio, 'mp3'>;
      const mp3 = new Uint8Array(readFileSync(this.#file(job, 'mp3')));
      return meta.key === job.key ? { ...meta, mp3 } : null;
    } catch {
      return null;
    }
  }

  /** Best effort: a cache that cannot be written is only slower next time. */
  put(job: TrackJob, audio: TrackAudio): void {
    try {
      mkdirSync(this.dir, { recursive: true });
      const { mp3, ...meta } = audio;
      const tmp = `.${process.pid}.tmp`;
      writeFileSync(this.#file(job, 'mp3') + tmp, mp3);
      renameSync(this.#file(job, 'mp3') + tmp, this.#file(job, 'mp3'));
      writeFileSync(this.#file(job, 'json') + tmp, JSON.stringify(meta));
      renameSync(this.#file(job, 'json') + tmp, this.#file(job, 'json'));
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
