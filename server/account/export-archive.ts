/**
 * The data export's archive (docs/privacy-rights.md): one zip (yazl) with the user's records as
 * JSON and the original audio of every track they uploaded, read from the object store (disk or
 * S3) as a stream, and the zip written to the store as a stream. The JSON is read with the server's own rights (RLS bypassed) but only rows of
 * this user. `onProgress` gets 0..1 as files are added.
 */
import { createHash } from 'node:crypto';
import { Readable, Transform } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import yazl from 'yazl';
import type { Queryable } from '../db/database';
import type { ObjectStore } from '../storage/object-store';

export interface ExportSections {
  profile: unknown;
  likes: unknown[];
  playlists: unknown[];
  follows: { following: unknown[]; followers: unknown[] };
  listening_history: unknown[];
  uploads: { track: Record<string, unknown>; lyrics: unknown; audio_file: string | null }[];
  earnings_statement: unknown[];
  withdrawals: unknown[];
  subscriptions: unknown[];
}

const rowsOf = async (db: Queryable, sql: string, user: string): Promise<unknown[]> =>
  (await db.query<{ r: unknown }>(sql, [user])).rows.map((row) => row.r);

/** Follows of one direction: rows where `mine` is the user, naming the `theirs` side. */
const followRows = (
  db: Queryable,
  user: string,
  mine: 'follower_id' | 'following_id',
  theirs: 'follower_id' | 'following_id',
) =>
  rowsOf(
    db,
    `select jsonb_build_object('user_id', f.${theirs}, 'name', p.name, 'since', f.created_at) as r
       from public.followers f left join public.profiles p on p.id = f.${theirs}
      where f.${mine} = $1 order by f.created_at`,
    user,
  );

/** The tracks bucket's object of a track's audio_url ('tracks/<name>' or a bare name). */
export function originalObject(audioUrl: string | null): string | null {
  if (!audioUrl) return null;
  const match = /^(?:tracks\/)?([^?#]+)$/.exec(
    audioUrl.replace(/^.*\/storage\/v1\/object\/public\/tracks\//, ''),
  );
  return match?.[1] ?? null;
}

export async function collectSections(db: Queryable, user: string): Promise<ExportSections> {
  const profile = (
    await db.query<{ r: unknown }>(
      `select jsonb_build_object(
         'account', jsonb_build_object('id', u.id, 'email', u.email, 'created_at', u.created_at,
                                       'last_sign_in_at', u.last_sign_in_at),
         'profile', to_jsonb(p)) as r
         from auth.users u left join public.profiles p on p.id = u.id where u.id = $1`,
      [user],
    )
  ).rows[0]?.r;
  const uploads = (
    await db.query<{ track: Record<string, unknown>; lyrics: unknown }>(
      `select to_jsonb(t) as track, to_jsonb(l) as lyrics
         from public.tracks t left join public.track_lyrics l on l.track_id = t.id
        where t.uploaded_by = $1 order by t.created_at, t.id`,
      [user],
    )
  ).rows.map((row) => {
    const name = originalObject(
      typeof row.track.audio_url === 'string' ? row.track.audio_url : null,
    );
    return {
      track: row.track,
      lyrics: row.lyrics,
      audio_file: name ? `audio/${String(row.track.id)}-${name.split('/').pop() ?? 'audio'}` : null,
    };
  });
  return {
    profile,
    likes: await rowsOf(
      db,
      `select jsonb_build_object('track_id', l.track_id, 'title', t.title, 'artist', t.artist,
                                 'liked_at', l.created_at) as r
         from public.liked_tracks l left join public.tracks t on t.id = l.track_id
        where l.user_id = $1 order by l.created_at`,
      user,
    ),
    playlists: await rowsOf(
      db,
      'select to_jsonb(p) as r from public.playlists p where p.created_by = $1 order by p.created_at',
      user,
    ),
    follows: {
      following: await followRows(db, user, 'follower_id', 'following_id'),
      followers: await followRows(db, user, 'following_id', 'follower_id'),
    },
    listening_history: await rowsOf(
      db,
      `select to_jsonb(h) as r from public.listening_history h
        where h.user_id = $1 order by h.listened_at`,
      user,
    ),
    uploads,
    earnings_statement: await rowsOf(
      db,
      `select jsonb_build_object('id', e.id, 'kind', e.kind, 'amount', e.amount,
                                 'track_id', e.track_id, 'withdrawal_id', e.withdrawal_id,
                                 'created_at', e.created_at) as r
         from public.earnings_ledger e where e.user_id = $1 order by e.created_at, e.id`,
      user,
    ),
    withdrawals: await rowsOf(
      db,
      'select to_jsonb(w) as r from public.withdrawals w where w.user_id = $1 order by w.created_at',
      user,
    ),
    subscriptions: await rowsOf(
      db,
      'select to_jsonb(s) as r from public.subscriptions s where s.user_id = $1 order by s.created_at',
      user,
    ),
  };
}

const README = `Your Soundloft data

Each .json file is one part of your account, in UTF-8 JSON:
- profile.json: your account (email, sign-up date) and your profile
- likes.json, playlists.json, follows.json, listening_history.json
- uploads.json: every track you uploaded, its metadata and its lyrics
- earnings_statement.json and withdrawals.json: your earnings ledger and payouts
- subscriptions.json: your paid plans
- audio/: the original audio file of each upload, as you uploaded it
`;

export interface WrittenArchive {
  size: number;
  /** The quoted MD5 of the bytes, as the storage API's eTag. */
  eTag: string;
}

/**
 * Writes the zip to the object store as it is made: yazl's output stream goes straight into
 * `store.putStream` (a temporary file, or an S3 multipart upload), and each original is read
 * from the store as a stream, so the worker's memory does not grow with the catalogue (figures
 * in docs/privacy-rights.md).
 */
export async function writeArchive(
  store: ObjectStore,
  bucket: string,
  name: string,
  sections: ExportSections,
  onProgress: (fraction: number) => Promise<void>,
): Promise<WrittenArchive> {
  const zip = new yazl.ZipFile();
  const md5 = createHash('md5');
  const hashed = zip.outputStream.pipe(
    new Transform({
      transform(chunk: Buffer, _encoding, done) {
        md5.update(chunk);
        done(null, chunk);
      },
    }),
  );
  const upload = store.putStream(bucket, name, hashed);
  // A failed upload ends the wait for an entry too (nothing would read the zip any more).
  const uploadFailed = upload.then(
    () => new Promise<never>(() => undefined),
    (error: unknown) => Promise.reject(error),
  );
  uploadFailed.catch(() => undefined);
  const json = (entry: string, value: unknown) =>
    zip.addBuffer(Buffer.from(`${JSON.stringify(value, null, 2)}\n`), entry, { compress: true });
  zip.addBuffer(Buffer.from(README), 'README.txt');
  json('profile.json', sections.profile);
  json('likes.json', sections.likes);
  json('playlists.json', sections.playlists);
  json('follows.json', sections.follows);
  json('listening_history.json', sections.listening_history);
  json('uploads.json', sections.uploads);
  json('earnings_statement.json', sections.earnings_statement);
  json('withdrawals.json', sections.withdrawals);
  json('subscriptions.json', sections.subscriptions);
  const files = sections.uploads.filter((u) => u.audio_file);
  let added = 0;
  try {
    for (const upload of files) {
      const object = originalObject(String(upload.track.audio_url));
      const stored = object ? await store.read('tracks', object) : null;
      if (stored && upload.audio_file) {
        const stream = Readable.fromWeb(stored.stream as NodeReadableStream);
        // Audio is compressed already: stored as it is.
        zip.addReadStream(stream, upload.audio_file, { compress: false, size: stored.size });
        await Promise.race([
          new Promise<void>((resolve, reject) => {
            stream.on('end', resolve);
            stream.on('error', reject);
          }),
          uploadFailed,
        ]);
      }
      added += 1;
      await onProgress(added / files.length);
    }
  } catch (error) {
    hashed.destroy();
    await upload.catch(() => undefined);
    throw error;
  }
  zip.end();
  const size = await upload;
  return { size, eTag: `"${md5.digest('hex')}"` };
}
