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
  const all = audioCandidates(track);
  if (all === null) return { url: track.audioUrl, quality: null };
  const candidates = all.filter(accept);
  const buckets = [...new Set(candidates.map((c) => c.bucket))];
  const signed = new Map<string, string | null>();
  await Promise.all(
    buckets.map(async (bucket) => {
      const paths = candidates.filter((c) => c.bucket === bucket).map((c) => c.path);
      const urls = await sign(bucket, paths, expiresIn);
      paths.forEach((p, i) => signed.set(`${bucket}/${p}`, urls[i] ?? null));
    }),
  );
  for (const c of candidates) {
    const url = signed.get(`${c.bucket}/${c.path}`);
    if (url) return { url, quality: c.quality };
  }
  throw new Error('This track is not available to you.');
}

/**
 * The player's source of audio for one signed-in listener: signs once per track and reuses the
 * URL until shortly before it expires (the next track is preloaded, a replay costs nothing).
 */
export function createAudioSource(
  sign: AudioSigner = storageSigner,
  now: () => number = Date.now,
): (track: AudioSourceTrack) => Promise<string> {
  const cache = new Map<string, { url: Promise<string>; renewAt: number }>();
  return (track) => {
    const hit = cache.get(track.id);
    if (hit && hit.renewAt > now()) return hit.url;
    const renewAt = now() + SIGNED_AUDIO_SECONDS * 1000 - RENEW_BEFORE_MS;
    const url = signBestAudio(track, sign).then((s) => s.url);
    cache.set(track.id, { url, renewAt });
    // A refusal or a network error is tried again next time.
    url.catch(() => {
      if (cache.get(track.id)?.url === url) cache.delete(track.id);
    });
    return url;
  };
}
