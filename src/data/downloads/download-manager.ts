/**
 * The download manager (docs/offline.md): a queue of one listener's downloads, kept in Dexie
 * (`downloads`) so it survives a reload, worked one file at a time into the downloads cache
 * (Cache Storage) that the service worker plays from. Progress per file is written to the row as
 * bytes arrive; pause and cancel abort the fetch; an interrupted file (reload, dropped
 * connection) starts again from its first byte when the queue resumes, because a signed URL is
 * short-lived and a partial body is not worth keeping across a reload. A full device stops the
 * queue with the quota message; nothing is retried in a loop.
 */
import type { Download, SoundloftDb } from '../db';
import { isQuotaError } from '../db';
import { DOWNLOADS_CACHE, offlineAudioPath } from '@/lib/offline-audio';

export const QUOTA_MESSAGE =
  'Not enough storage space on this device. Remove some downloads or free up space, then try again.';
export const DOWNLOAD_FAILED_MESSAGE = 'Download failed. Try again.';
export const NOT_AVAILABLE_MESSAGE = 'This track is not available to you.';

/** A signed URL of the file to store, and the rendition it is. */
export interface SignedFile {
  url: string;
  quality: string | null;
}

export interface DownloadManagerDeps {
  db: SoundloftDb;
  userId: string;
  /** Signs the file for a track (throws when the server refuses every rendition). */
  sign: (trackId: string) => Promise<SignedFile>;
  fetch?: typeof fetch;
  caches?: CacheStorage;
  /** Whether the device is online (navigator.onLine in the app). */
  isOnline?: () => boolean;
  /** The origin the cache keys are made on (the service worker's). */
  origin?: string;
  now?: () => Date;
  /** The least time between two progress writes of one file. */
  progressEveryMs?: number;
}

interface Active {
  trackId: string;
  controller: AbortController;
  /** Why it was aborted: the row's next state is the caller's. */
  reason: 'pause' | 'cancel' | 'stop' | null;
}

export class DownloadManager {
  private readonly deps: Required<Omit<DownloadManagerDeps, 'caches' | 'fetch'>> & {
    caches: () => CacheStorage;
    fetch: typeof fetch;
  };
  private active: Active | null = null;
  private running: Promise<void> | null = null;
  private stopped = true;
  /** Set by a full device: the queue waits until the listener asks again. */
  private blockedByQuota = false;

  constructor(deps: DownloadManagerDeps) {
    this.deps = {
      ...deps,
      fetch: deps.fetch ?? ((...args) => globalThis.fetch(...args)),
      caches: () => deps.caches ?? globalThis.caches,
      isOnline: deps.isOnline ?? (() => globalThis.navigator?.onLine !== false),
      origin: deps.origin ?? globalThis.location.origin,
      now: deps.now ?? (() => new Date()),
      progressEveryMs: deps.progressEveryMs ?? 250,
    };
  }

  get userId(): string {
    return this.deps.userId;
  }

  /** The cache key of a track's file for this listener. */
  keyOf(trackId: string): string {
    return new URL(offlineAudioPath(this.deps.userId, trackId), this.deps.origin).toString();
  }

  /**
   * Picks the queue up where it was: a file that was downloading when the page went away is
   * queued again (from its first byte), and the queue runs.
   */
  async start(): Promise<void> {
    this.stopped = false;
    await this.table()
      .where('[userId+state]')
      .equals([this.deps.userId, 'downloading'])
      .modify({ state: 'queued', receivedBytes: 0 });
    this.kick();
  }

  /** Stops working the queue (sign-out, tests); the interrupted file stays queued. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.abortActive('stop');
    await this.running;
  }

  /** Queues tracks for `source` ('track', 'playlist:<id>', 'liked'); downloaded ones stay. */
  async enqueue(trackIds: readonly string[], source: string): Promise<void> {
    const { db, userId } = this.deps;
    const base = this.deps.now().getTime();
    await db.transaction('rw', db.downloads, async () => {
      for (const [i, trackId] of trackIds.entries()) {
        const row = await db.downloads.get([userId, trackId]);
        if (row) {
          const sources = row.sources.includes(source) ? row.sources : [...row.sources, source];
          const retry = row.state === 'failed' ? { state: 'queued' as const, error: null } : {};
          await db.downloads.update([userId, trackId], { sources, ...retry });
          continue;
        }
        await db.downloads.add({
          userId,
          trackId,
          state: 'queued',
          receivedBytes: 0,
          totalBytes: null,
          quality: null,
          error: null,
          // Distinct times keep the order of a playlist in the queue.
          queuedAt: new Date(base + i).toISOString(),
          completedAt: null,
          sources: [source],
        });
      }
    });
    this.blockedByQuota = false;
    this.kick();
  }

  /** Pauses one file, or the whole queue; a paused file keeps its place. */
  async pause(trackId?: string): Promise<void> {
    const rows = this.table().where('[userId+state]');
    const { userId } = this.deps;
    const states = ['queued', 'downloading'] as const;
    if (trackId) {
      await this.table()
        .where('[userId+trackId]')
        .equals([userId, trackId])
        .filter((d) => d.state === 'queued' || d.state === 'downloading')
        .modify({ state: 'paused', receivedBytes: 0 });
      if (this.active?.trackId === trackId) this.abortActive('pause');
      return;
    }
    await rows.anyOf(states.map((s) => [userId, s])).modify({ state: 'paused', receivedBytes: 0 });
    this.abortActive('pause');
  }

  /** Resumes one paused or failed file, or every one of them. */
  async resume(trackId?: string): Promise<void> {
    const { userId } = this.deps;
    const again = (d: Download) => d.state === 'paused' || d.state === 'failed';
    const rows = trackId
      ? this.table().where('[userId+trackId]').equals([userId, trackId])
      : this.table().where('userId').equals(userId);
    await rows.filter(again).modify({ state: 'queued', error: null, receivedBytes: 0 });
    this.blockedByQuota = false;
    this.kick();
  }

  /** Cancels a queued or running download, or removes a downloaded file: row and file go. */
  async remove(trackId: string): Promise<void> {
    if (this.active?.trackId === trackId) this.abortActive('cancel');
    await this.table().delete([this.deps.userId, trackId]);
    await (await this.cache()).delete(this.keyOf(trackId));
  }

  /**
   * Takes `source` off tracks; a track no other source still wants is removed (a playlist's
   * removed track, a playlist no longer downloaded).
   */
  async release(trackIds: readonly string[], source: string): Promise<void> {
    const { userId } = this.deps;
    for (const trackId of trackIds) {
      const row = await this.table().get([userId, trackId]);
      if (!row || !row.sources.includes(source)) continue;
      const sources = row.sources.filter((s) => s !== source);
      if (sources.length === 0) await this.remove(trackId);
      else await this.table().update([userId, trackId], { sources });
    }
  }

  /** Every download of this listener, files and rows ('Remove all downloads', sign-out). */
  async removeAll(): Promise<void> {
    this.abortActive('cancel');
    await this.running;
    const ids = (await this.table().where('userId').equals(this.deps.userId).primaryKeys()).map(
      ([, trackId]) => trackId,
    );
    const cache = await this.cache();
    await Promise.all(ids.map((id) => cache.delete(this.keyOf(id))));
    await this.table().where('userId').equals(this.deps.userId).delete();
  }

  /** Resolves when the queue has nothing left it can do now (tests, the bench). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private table() {
    return this.deps.db.downloads;
  }

  private cache(): Promise<Cache> {
    return this.deps.caches().open(DOWNLOADS_CACHE);
  }

  private abortActive(reason: NonNullable<Active['reason']>): void {
    if (!this.active) return;
    this.active.reason = reason;
    this.active.controller.abort();
  }

  /** Runs the queue unless it runs already. */
  private kick(): void {
    if (this.running || this.stopped) return;
    this.running = this.work().finally(() => {
      this.running = null;
    });
  }

  private async next(): Promise<Download | undefined> {
    const { userId } = this.deps;
    return this.table()
      .where('[userId+queuedAt]')
      .between([userId, ''], [userId, '\uffff'])
      .filter((d) => d.state === 'queued')
      .first();
  }

  private async work(): Promise<void> {
    while (!this.stopped && !this.blockedByQuota && this.deps.isOnline()) {
      const row = await this.next();
      if (!row) return;
      await this.download(row.trackId);
    }
  }

  private async download(trackId: string): Promise<void> {
    const { userId } = this.deps;
    const key: [string, string] = [userId, trackId];
    const active: Active = { trackId, controller: new AbortController(), reason: null };
    this.active = active;
    await this.table().update(key, { state: 'downloading', receivedBytes: 0, error: null });
    try {
      const signed = await this.deps.sign(trackId).catch((error: unknown) => {
        throw new Refused(error instanceof Error ? error.message : NOT_AVAILABLE_MESSAGE);
      });
      const response = await this.deps.fetch(signed.url, { signal: active.controller.signal });
      if (!response.ok || !response.body) throw new Refused(DOWNLOAD_FAILED_MESSAGE);
      const length = Number(response.headers.get('Content-Length'));
      const totalBytes = Number.isFinite(length) && length > 0 ? length : null;
      await this.table().update(key, { totalBytes, quality: signed.quality });
      const body = await this.read(response.body, key);
      if (active.reason) return;
      const cache = await this.cache();
      await cache.put(
        this.keyOf(trackId),
        new Response(body, {
          headers: {
            'Content-Type': response.headers.get('Content-Type') ?? 'audio/mpeg',
            'Content-Length': String(body.byteLength),
          },
        }),
      );
      // Cancelled while it was being stored: the file goes with the row.
      if (active.reason === 'cancel' || !(await this.table().get(key))) {
        await cache.delete(this.keyOf(trackId));
        return;
      }
      await this.table().update(key, {
        state: 'done',
        receivedBytes: body.byteLength,
        totalBytes: body.byteLength,
        completedAt: this.deps.now().toISOString(),
      });
    } catch (error) {
      await this.failed(key, active, error);
    } finally {
      if (this.active === active) this.active = null;
    }
  }

  /** Reads the body, writing progress to the row at most every `progressEveryMs`. */
  private async read(body: ReadableStream<Uint8Array>, key: [string, string]) {
    const chunks: Uint8Array[] = [];
    let received = 0;
    let lastWrite = 0;
    const reader = body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      received += value.byteLength;
      const now = Date.now();
      if (now - lastWrite >= this.deps.progressEveryMs) {
        lastWrite = now;
        await this.table().update(key, { receivedBytes: received });
      }
    }
    const out = new Uint8Array(received);
    let offset = 0;
    for (const chunk of chunks) {
      out.set(chunk, offset);
      offset += chunk.byteLength;
    }
    return out;
  }

  private async failed(key: [string, string], active: Active, error: unknown): Promise<void> {
    if (active.reason === 'cancel') return;
    if (active.reason === 'pause') return; // pause() set the row already
    if (active.reason === 'stop') {
      await this.table().update(key, { state: 'queued', receivedBytes: 0 });
      return;
    }
    if (isQuotaError(error)) {
      this.blockedByQuota = true;
      await this.table().update(key, { state: 'failed', error: QUOTA_MESSAGE, receivedBytes: 0 });
      return;
    }
    if (!(error instanceof Refused) && !this.deps.isOnline()) {
      // The connection dropped: the file waits in the queue for the network (resumeWhenOnline).
      await this.table().update(key, { state: 'queued', receivedBytes: 0 });
      return;
    }
    const message = error instanceof Refused ? error.message : DOWNLOAD_FAILED_MESSAGE;
    await this.table().update(key, { state: 'failed', error: message, receivedBytes: 0 });
  }

  /** The queue runs again when the device comes back online (the app wires 'online'). */
  resumeWhenOnline(): void {
    this.kick();
  }
}

/** The server refused the file, or answered without it: not a network drop. */
class Refused extends Error {}
