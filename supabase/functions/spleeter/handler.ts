/**
 * `spleeter`: POST {audioUrl} → {stemUrls} (vocals, drums, bass, other, in that order), the
 * spec's contract. Separation is a job (docs/stems.md): while the track's stems are not ready
 * the answer is 202 {state: 'queued' | 'running', progress} at once and the app asks again; once
 * they are, 200 {state: 'ready', stemUrls} with signed URLs of the four MP3s, computed once per
 * track and reused by everyone who may play it. Postgres decides who may ask (`stems_track`, as
 * the caller: the track must be visible and playable by their plan) and who may read (the stems
 * bucket's policy, the same rule); `request_stem_job` (service role) keeps one job per track and
 * bounds a user's separations in progress. The server's job runner does the work.
 */
import { HttpError, callerId, errorResponse, json, withCors } from '../_shared/http.ts';
import { readBody, z } from '../_shared/body.ts';
import { requireSecondFactor } from '../_shared/second-factor.ts';

export const STEMS = ['vocals', 'drums', 'bass', 'other'] as const;
/** The spec's message (section 8) for every separation failure. */
export const FAILED_TO_SEPARATE = 'Failed to separate stems';
export const TOO_MANY =
  'Too many stem separations at once. Try again when one of yours has finished.';
/** Separations one user may have queued or running at once (STEMS_MAX_ACTIVE_PER_USER). */
const DEFAULT_MAX_ACTIVE = 2;
/** Signed stem URLs last an hour (the player fetches them at once). */
const URL_SECONDS = 3600;

export type SpleeterAnswer =
  | { state: 'ready'; stems: typeof STEMS; stemUrls: string[] }
  | { state: 'queued' | 'running'; stems: typeof STEMS; progress: number };

const Body = z.strictObject({
  audioUrl: z
    .string({ error: 'audioUrl is required.' })
    .trim()
    .min(1, { error: 'audioUrl is required.' })
    .max(2048, { error: 'audioUrl: at most 2048 characters.' }),
});

function maxActive(value: string | undefined): number {
  const n = Number(value);
  return value && Number.isInteger(n) && n > 0 ? n : DEFAULT_MAX_ACTIVE;
}

export const handler = withCors(async (req, ctx) => {
  if (req.method !== 'POST') return errorResponse('Method not allowed', 405);
  const { audioUrl } = await readBody(req, Body);
  const userId = callerId(req);
  if (!userId) throw new HttpError(401, 'Not authenticated');
  await requireSecondFactor(req, ctx);

  const caller = ctx.userClient(req);
  const found = await caller.rpc('stems_track', { audio_url: audioUrl });
  if (found.error) {
    console.error('[spleeter] stems_track', found.error);
    return errorResponse(FAILED_TO_SEPARATE, 500);
  }
  const track = (found.data as { track_id: string; may_play: boolean }[] | null)?.[0];
  if (!track) throw new HttpError(404, 'Track not found');
  if (!track.may_play) throw new HttpError(403, 'You may not play this track.');

  const job = await ctx.serviceClient().rpc('request_stem_job', {
    track_id: track.track_id,
    user_id: userId,
    max_active: maxActive(ctx.env('STEMS_MAX_ACTIVE_PER_USER')),
  });
  const row = (job.data as { state: string; progress: number }[] | null)?.[0];
  if (job.error || !row) {
    console.error('[spleeter] request_stem_job', job.error);
    return errorResponse(FAILED_TO_SEPARATE, 500);
  }
  switch (row.state) {
    case 'queued':
    case 'running':
      return json(
        { state: row.state, stems: STEMS, progress: row.progress } satisfies SpleeterAnswer,
        202,
      );
    case 'limited':
      return errorResponse(TOO_MANY, 429);
    case 'done':
      break;
    default:
      return errorResponse(FAILED_TO_SEPARATE, 500);
  }
  // Signed as the caller: the stems bucket's policy decides once more.
  const signed = await caller.storage.from('stems').createSignedUrls(
    STEMS.map((stem) => `${track.track_id}/${stem}.mp3`),
    URL_SECONDS,
  );
  const urls = (signed.data ?? []).flatMap((s) => (s.signedUrl ? [s.signedUrl] : []));
  if (signed.error || urls.length !== STEMS.length) {
    console.error('[spleeter] signing', signed.error ?? signed.data);
    return errorResponse(FAILED_TO_SEPARATE, 500);
  }
  return json({ state: 'ready', stems: STEMS, stemUrls: urls } satisfies SpleeterAnswer);
});
