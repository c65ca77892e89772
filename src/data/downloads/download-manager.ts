/**
 * The download manager (docs/offline.md): a queue of one listener's downloads, kept in Dexie
 * (`downloads`) so it survives a reload, worked one file at a time into the downloads cache
 * (Cache Storage) that the service worker plays from. Progress per file is written to the row as
 * bytes arrive; pause and cancel abort the fetch. The bytes of an unfinished file are kept
 * (download-parts.ts), so a pause, a dropped connection or a reload resumes with a Range request
 * from where it stopped (download-transfer.ts); a connection dropped while online is tried again
 * a few times before the file fails. A full device stops the queue with the quota message;
 * nothing is retried in a loop.
 */
import type { Download, SoundloftDb } from '../db';
import { isQuotaError } from '../db';
import { DOWNLOADS_CACHE, offlineAudioPath } from '@/lib/offline-audio';
import { DownloadParts } from './download-parts';
import { DOWNLOAD_FAILED_MESSAGE, Refused, keptOf, transfer, type Kept } from './download-transfer';

export { DOWNLOAD_FAILED_MESSAGE } from './download-transfer';
export const QUOTA_MESSAGE =
  'Not enough storage space on this device. Remove some downloads or free up space, then try again.';
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
  /** Bytes received before they are appended to the kept part of the file (the resume point). */
  partBytes?: number;
  /** Tries after a connection dropped while online without a byte more (then the file fails). */
  retries?: number;
  /** The pause before the first of those tries; doubled for each next one. */
  retryDelayMs?: number;
  /**
   * Resolves once the app itself opens offline (whenShellOffline: the service worker installed
   * and controlling the page). A file is 'done' only then: on a first visit the worker may still
   * be precaching the shell when the file is stored. Default: at once.
   */
  shellOffline?: () => Promise<void>;
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
  private readonly parts: DownloadParts;
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
      partBytes: deps.partBytes ?? 512 * 1024,
      retries: deps.retries ?? 3,
      retryDelayMs: deps.retryDelayMs ?? 1000,
      shellOffline: deps.shellOffline ?? (() => Promise.resolve()),
    };
    this.parts = new DownloadParts(() => this.cache(), this.deps.origin, deps.userId);
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
   * queued again (it resumes from the bytes kept), and the queue runs.
   */
  async start(): Promise<void> {
    this.stopped = false;
    await this.table()
      .where('[userId+state]')
      .equals([this.deps.userId, 'downloading'])
      .modify({ state: 'queued' });
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
        .modify({ state: 'paused' });
      if (this.active?.trackId === trackId) this.abortActive('pause');
      return;
    }
    await rows.anyOf(states.map((s) => [userId, s])).modify({ state: 'paused' });
    this.abortActive('pause');
  }

  /** Resumes one paused or failed file, or every one of them. */
  async resume(trackId?: string): Promise<void> {
    const { userId } = this.deps;
    const again = (d: Download) => d.state === 'paused' || d.state === 'failed';
    const rows = trackId
      ? this.table().where('[userId+trackId]').equals([userId, trackId])
      : this.table().where('userId').equals(userId);
    await rows.filter(again).modify({ state: 'queued', error: null });
    this.blockedByQuota = false;
    this.kick();
  }

  /** Cancels a queued or running download, or removes a downloaded file: row and file go. */
  async remove(trackId: string): Promise<void> {
    if (this.active?.trackId === trackId) this.abortActive('cancel');
    await this.table().delete([this.deps.userId, trackId]);
    await (await this.cache()).delete(this.keyOf(trackId));
    await this.parts.drop(trackId);
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

  /**
   * The offline check's answer (`renew_track_downloads`, docs/offline.md "Rights"): removes, file
   * and row, every finished download the server no longer holds for this device (a track taken
   * down since: copyright removal, admin takedown, its uploader banned). Unfinished ones are left
   * to their signing, which the server refuses for such a track. Resolves to the removed ids.
   */
  async keepOnly(held: ReadonlySet<string>): Promise<string[]> {
    const gone = (
      await this.table().where('[userId+state]').equals([this.deps.userId, 'done']).primaryKeys()
    )
      .map(([, trackId]) => trackId)
      .filter((trackId) => !held.has(trackId));
    for (const trackId of gone) await this.remove(trackId);
    return gone;
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
    await this.parts.drop();
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
    const kept = keptOf([]);
    // Asked now, so a first visit's service worker installs while the file downloads.
    const shell = this.deps.shellOffline();
    shell.catch(() => undefined); // awaited below; a failure before then is not unhandled
    try {
      Object.assign(kept, keptOf(await this.parts.read(trackId)));
      await this.table().update(key, {
        state: 'downloading',
        receivedBytes: kept.bytes,
        error: null,
      });
      const file = await this.transferWithRetries(trackId, key, active, kept);
      const cache = await this.cache();
      await cache.put(
        this.keyOf(trackId),
        new Response(file.file, {
          headers: { 'Content-Type': file.type, 'Content-Length': String(file.file.size) },
        }),
      );
      await this.parts.drop(trackId);
      // 'Downloaded' promises the track plays offline: the app must open offline as well.
      await this.untilAborted(shell, active);
      // Cancelled while it was being stored: the file goes with the row.
      if (active.reason === 'cancel' || !(await this.table().get(key))) {
        await cache.delete(this.keyOf(trackId));
        return;
      }
      await this.table().update(key, {
        state: 'done',
        receivedBytes: file.file.size,
        totalBytes: file.file.size,
        completedAt: this.deps.now().toISOString(),
      });
    } catch (error) {
      await this.failed(key, active, error, kept);
    } finally {
      if (this.active === active) this.active = null;
    }
  }

  /**
   * Tries the file until it is whole: a connection dropped while online is tried again from the
   * bytes kept, after a pause that doubles while the tries bring nothing new, at most `retries`
   * times in a row.
   */
  private async transferWithRetries(
    trackId: string,
    key: [string, string],
    active: Active,
    kept: Kept,
  ) {
    for (let fruitless = 0; ;) {
      const before = kept.bytes;
      try {
        const signed = await this.deps.sign(trackId).catch((error: unknown) => {
          throw new Refused(error instanceof Error ? error.message : NOT_AVAILABLE_MESSAGE);
        });
        const row = await this.table().get(key);
        if (!row) throw new DOMException('The download was cancelled.', 'AbortError');
        return await transfer({
          trackId,
          url: signed.url,
          quality: signed.quality,
          row,
          kept,
          signal: active.controller.signal,
          fetch: this.deps.fetch,
          parts: this.parts,
          partBytes: this.deps.partBytes,
          update: (changes) => this.table().update(key, changes),
          progressEveryMs: this.deps.progressEveryMs,
          cancelled: () => active.reason === 'cancel',
        });
      } catch (error) {
        const dropped =
          !active.reason &&
          !(error instanceof Refused) &&
          !isQuotaError(error) &&
          this.deps.isOnline();
        fruitless = kept.bytes > before ? 0 : fruitless + 1;
        if (!dropped || fruitless > this.deps.retries) throw error;
        await this.wait(this.deps.retryDelayMs * 2 ** fruitless, active);
        if (active.reason) throw error;
      }
    }
  }

  /** Waits for `promise`; throws an AbortError once the file is paused, cancelled or stopped. */
  private untilAborted<T>(promise: Promise<T>, active: Active): Promise<T> {
    const { signal } = active.controller;
    const aborted = new Promise<never>((_, reject) => {
      const abort = () => reject(new DOMException('The download was stopped.', 'AbortError'));
      if (signal.aborted) abort();
      else signal.addEventListener('abort', abort, { once: true });
    });
    return Promise.race([promise, aborted]);
  }

  /** Waits `ms`, or less when the file is paused, cancelled or stopped meanwhile. */
  private wait(ms: number, active: Active): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      active.controller.signal.addEventListener(
        'abort',
        () => {
          clearTimeout(timer);
          resolve();
        },
        { once: true },
      );
    });
  }

  private async failed(
    key: [string, string],
    active: Active,
    error: unknown,
    kept: Kept,
  ): Promise<void> {
    const receivedBytes = kept.bytes;
    if (active.reason === 'cancel') {
      // A part being written as the file was cancelled may land after remove() ran.
      await this.parts.drop(key[1]);
      return;
    }
    if (active.reason === 'pause') {
      await this.table().update(key, { receivedBytes }); // pause() set the state already
      return;
    }
    if (active.reason === 'stop') {
      await this.table().update(key, { state: 'queued', receivedBytes });
      return;
    }
    if (isQuotaError(error)) {
      this.blockedByQuota = true;
      await this.table().update(key, { state: 'failed', error: QUOTA_MESSAGE, receivedBytes });
      return;
    }
    if (!(error instanceof Refused) && !this.deps.isOnline()) {
      // The connection dropped: the file waits in the queue for the network (resumeWhenOnline).
      await this.table().update(key, { state: 'queued', receivedBytes });
      return;
    }
    const message = error instanceof Refused ? error.message : DOWNLOAD_FAILED_MESSAGE;
    await this.table().update(key, { state: 'failed', error: message, receivedBytes });
  }

  /** The queue runs again when the device comes back online (the app wires 'online'). */
  resumeWhenOnline(): void {
    this.kick();
  }
}
