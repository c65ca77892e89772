/**
 * The server's side of honest plays (docs/plays.md): every answer to a signed URL that carried
 * bytes becomes a row of evidence (`served_audio`) or, asked as a download by a plan with
 * offline downloads, a `track_downloads` row. increment_track_plays and record_offline_play
 * judge listens against these rows; clients can neither read nor write them.
 *
 * The storage app must not wait for this (audio is answered first), so writes are queued and
 * their failures logged; `settled()` resolves once every write queued so far has finished.
 */
import type { Database } from '../db/database';
import type { SignedRead } from '../storage/app';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface PlayEvidence {
  /** Hand to `createStorageApp({ onSignedRead })`. */
  onSignedRead: (read: SignedRead) => void;
  /** Resolves when every read reported so far is written (tests; shutdown). */
  settled: () => Promise<void>;
}

export function createPlayEvidence(
  db: Database,
  log: (message: string) => void = (m) => console.error(m),
): PlayEvidence {
  const pending = new Set<Promise<void>>();
  const onSignedRead = (read: SignedRead) => {
    if (!read.sub || !UUID.test(read.sub)) return; // anon and service reads are nobody's listen
    const write = db
      .query('select public.record_served_audio($1, $2, $3, $4, $5, $6, $7, $8)', [
        read.sub,
        read.bucket,
        read.name,
        read.start,
        read.end,
        read.size,
        read.download,
        read.device,
      ])
      .then(
        () => undefined,
        (error: unknown) => log(`[plays] could not record a served read: ${String(error)}`),
      )
      .finally(() => pending.delete(write));
    pending.add(write);
  };
  return {
    onSignedRead,
    settled: async () => {
      while (pending.size > 0) await Promise.all([...pending]);
    },
  };
}
