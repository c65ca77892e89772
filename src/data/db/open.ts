/**
 * The app's database instance, opened lazily, and what the UI needs to know about it: another
 * tab upgraded the schema (close, ask for a reload) or the browser's storage quota is full.
 */
import { SoundloftDb } from './schema';

export interface DbHealth {
  /** Another tab opened a newer schema: this tab closed its connection and must reload. */
  needsReload: boolean;
  /** The last write failed for lack of storage. */
  quotaExceeded: boolean;
}

let health: DbHealth = { needsReload: false, quotaExceeded: false };
const listeners = new Set<() => void>();

function setHealth(next: Partial<DbHealth>) {
  health = { ...health, ...next };
  for (const listener of listeners) listener();
}

export const dbHealthStore = {
  getSnapshot: (): DbHealth => health,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

/** Closes on `versionchange` (so the other tab's upgrade is not blocked) and flags a reload. */
export function watchVersionChange(db: SoundloftDb): SoundloftDb {
  db.on('versionchange', () => {
    db.close();
    setHealth({ needsReload: true });
    return false;
  });
  return db;
}

let instance: SoundloftDb | null = null;

export function getDb(): SoundloftDb {
  instance ??= watchVersionChange(new SoundloftDb());
  return instance;
}

/** Tests: a fresh database under another name (each test file or client gets its own). */
export function createDb(name: string): SoundloftDb {
  return watchVersionChange(new SoundloftDb(name));
}

export function isQuotaError(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 4; depth++) {
    const name = (e as { name?: unknown }).name;
    if (name === 'QuotaExceededError') return true;
    e = (e as { inner?: unknown }).inner;
  }
  return false;
}

/** Marks the quota as full (and rethrows) when a local write failed for lack of space. */
export function reportQuota(error: unknown): void {
  if (isQuotaError(error)) setHealth({ quotaExceeded: true });
}

export function clearQuotaFlag(): void {
  if (health.quotaExceeded) setHealth({ quotaExceeded: false });
}
