/**
 * Where the player's audio comes from (docs/upload.md, "Playback"): signed URLs that storage-js's
 * `createSignedUrls` makes, for the best rendition the server lets this listener fetch. The app
 * does not decide what a plan may hear: it asks for every quality the track has, best first, and
 * the storage policies (may_fetch_quality, may_fetch_original) sign only what the listener's plan
 * allows. A refused path is an entry with an error in a 200 answer, so nothing fails loudly.
 * The token of a signed URL names the listener (`sub`): the server knows whose audio it serves.
 */
import { getSupabase } from './client';
import { trackObjectName } from './storage-paths';

export type AudioQuality = 'standard' | 'high' | 'lossless';

export interface AudioSourceTrack {
  id: string;
  audioUrl: string;
  /** The renditions the track has; [] for a row made before the pipeline; undefined: unknown. */
  qualities?: readonly AudioQuality[];
}

/** What one candidate is: a path in a bucket, and what the listener hears from it. */
export interface AudioCandidate {
  bucket: 'tracks' | 'renditions';
  path: string;
  quality: AudioQuality | 'original';
}

/** How long a signed audio URL lives; it is renewed 10 minutes before. */
export const SIGNED_AUDIO_SECONDS = 4 * 60 * 60;
const RENEW_BEFORE_MS = 10 * 60 * 1000;

/** The files that could play `track`, best first (null: not a storage object, play as is). */
export function audioCandidates(track: AudioSourceTrack): AudioCandidate[] | null {
  const original = trackObjectName(track.audioUrl);
  if (original === null) return null;
  const known = track.qualities;
  const has = (q: AudioQuality) => known === undefined || known.includes(q);
  const out: AudioCandidate[] = [];
  // The original is what a premium listener gets when it is lossless; a row without renditions
  // (made before the pipeline) has nothing else. When the qualities are unknown, it comes first:
  // the server signs it only in those two cases, and then it is the best there is.
  if (known === undefined || known.length === 0 || known.includes('lossless')) {
    out.push({
      bucket: 'tracks',
      path: original,
      quality: known?.includes('lossless') ? 'lossless' : 'original',
    });
  }
  if (has('high'))
    out.push({ bucket: 'renditions', path: `${track.id}/high.mp3`, quality: 'high' });
  if (known === undefined || known.includes('standard'))
    out.push({ bucket: 'renditions', path: `${track.id}/standard.mp3`, quality: 'standard' });
  return out;
}

/** Signs `paths` in `bucket`: a URL per path, or null where the server refused it. */
export type AudioSigner = (
  bucket: string,
  paths: string[],
  expiresIn: number,
) => Promise<(string | null)[]>;

const storageSigner: AudioSigner = async (bucket, paths, expiresIn) => {
  const storage = await (await getSupabase()).storage();
  const { data, error } = await storage.from(bucket).createSignedUrls(paths, expiresIn);
  if (error) throw error;
  return paths.map((p) => data.find((d) => d.path === p && !d.error)?.signedUrl ?? null);
};

/**
 * Whether signing failed because nothing reached the server (offline, even when
 * navigator.onLine says otherwise, as after a reload while offline): storage-js wraps the
 * fetch's TypeError in a StorageUnknownError.
 */
export function isUnreachable(error: unknown): boolean {
  return (
    error instanceof TypeError ||
    (error as { originalError?: unknown } | null)?.originalError instanceof TypeError
  );
}

export interface SignedAudio {
  url: string;
  quality: AudioCandidate['quality'] | null;
}

/** Signs the best candidate the server grants; one request per bucket, in parallel. */
export async function signBestAudio(
  track: AudioSourceTrack,
  sign: AudioSigner = storageSigner,
  expiresIn = SIGNED_AUDIO_SECONDS,
  /** Which candidates to ask for (downloads in 'high' leave the lossless file out). */
  accept: (candidate: AudioCandidate) => boolean = () => true,
): Promise<SignedAudio> {
  const [result] = await signBestAudioMany([track], sign, expiresIn, accept);
  if (result instanceof Error) throw result;
  return result as SignedAudio;
}

/**
 * The best signed audio of each of `tracks` (in order), or the error of a track the server
 * grants nothing of: every candidate of every track in one request per bucket.
 */
export async function signBestAudioMany(
  tracks: readonly AudioSourceTrack[],
  sign: AudioSigner = storageSigner,
  expiresIn = SIGNED_AUDIO_SECONDS,
  accept: (candidate: AudioCandidate) => boolean = () => true,
): Promise<(SignedAudio | Error)[]> {
  const candidates = tracks.map((t) => audioCandidates(t)?.filter(accept) ?? null);
  const paths = new Map<string, Set<string>>();
  for (const c of candidates.flat()) {
    if (c === null) continue;
    const inBucket = paths.get(c.bucket) ?? new Set<string>();
    inBucket.add(c.path);
    paths.set(c.bucket, inBucket);
  }
  const signed = new Map<string, string | null>();
  await Promise.all(
    [...paths].map(async ([bucket, set]) => {
      const list = [...set];
      const urls = await sign(bucket, list, expiresIn);
      list.forEach((p, i) => signed.set(`${bucket}/${p}`, urls[i] ?? null));
    }),
  );
  return tracks.map((track, i) => {
    const mine = candidates[i];
    if (mine === null || mine === undefined) return { url: track.audioUrl, quality: null };
    for (const c of mine) {
      const url = signed.get(`${c.bucket}/${c.path}`);
      if (url) return { url, quality: c.quality };
    }
    return new Error('This track is not available to you.');
  });
}

/** The player's source of audio: a URL per track, and signing ahead of the click. */
export interface AudioSource {
  (track: AudioSourceTrack): Promise<string>;
  /**
   * Signs, in one request per bucket, the tracks of `tracks` that have no fresh URL yet (a list
   * on screen, the queue): the click that plays one of them then waits for no signing at all.
   */
  prepare(tracks: readonly AudioSourceTrack[]): void;
}

/** At most this many tracks are signed ahead in one request (a long list: its first rows). */
export const PREPARE_BATCH = 50;

/**
 * The player's source of audio for one signed-in listener: signs once per track and reuses the
 * URL until shortly before it expires (the next track is preloaded, a replay costs nothing).
 */
export function createAudioSource(
  sign: AudioSigner = storageSigner,
  now: () => number = Date.now,
): AudioSource {
  const cache = new Map<string, { url: Promise<string>; renewAt: number }>();
  const fresh = (id: string) => {
    const hit = cache.get(id);
    return hit && hit.renewAt > now() ? hit : null;
  };
  const remember = (id: string, url: Promise<string>) => {
    cache.set(id, { url, renewAt: now() + SIGNED_AUDIO_SECONDS * 1000 - RENEW_BEFORE_MS });
    // A refusal or a network error is tried again next time.
    url.catch(() => {
      if (cache.get(id)?.url === url) cache.delete(id);
    });
  };
  const source = ((track) => {
    const hit = fresh(track.id);
    if (hit) return hit.url;
    const url = signBestAudio(track, sign).then((s) => s.url);
    remember(track.id, url);
    return url;
  }) as AudioSource;
  source.prepare = (tracks) => {
    const seen = new Set<string>();
    const wanted = tracks
      .filter((t) => !fresh(t.id) && !seen.has(t.id) && seen.add(t.id))
      .slice(0, PREPARE_BATCH);
    if (wanted.length === 0) return;
    const batch = signBestAudioMany(wanted, sign);
    wanted.forEach((track, i) => {
      const url = batch.then((results) => {
        const result = results[i];
        if (result === undefined || result instanceof Error) throw result ?? new Error('unsigned');
        return result.url;
      });
      url.catch(() => undefined); // nobody may ask for this one: no unhandled rejection
      remember(track.id, url);
    });
  };
  return source;
}
