/**
 * `copyright-notice`: the public copyright notice form (docs/trust-and-safety.md), no sign-in
 * needed (config.json: verify_jwt false). POST {claimantName, email, address?, phone?, work,
 * trackUrls: [track URL or id, ...], goodFaith: true, accuracy: true, signature}. The body is
 * checked here (zod, body.ts), then `public.copyright_submit_notice` (service role only) checks
 * the tracks, takes the rate limit in Postgres (per client IP and per claimant address, shared by
 * every node), records the notice(s) and queues the acknowledgement e-mail, all in one
 * transaction. Answers {noticeIds, receivedAt, removalDue} (201), or {error} 400 / 429.
 */
import { readBody, rpcErrorStatus, z } from '../_shared/body.ts';
import { errorResponse, json, withCors } from '../_shared/http.ts';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

const text = (max: number, message: string) =>
  z.string({ error: message }).trim().min(1, { error: message }).max(max, { error: message });

export const NoticeBody = z.strictObject({
  claimantName: text(200, 'Enter your full name.'),
  email: z.email({ error: 'Enter a valid email address.' }).max(320),
  address: z.string().trim().max(500, { error: 'The address is too long.' }).optional(),
  phone: z.string().trim().max(50, { error: 'The phone number is too long.' }).optional(),
  work: text(4000, 'Describe the copyrighted work (up to 4000 characters).'),
  trackUrls: z
    .array(z.string().max(500), { error: 'Name at least one track.' })
    .min(1, { error: 'Name at least one track.' })
    .max(50, { error: 'Name at most 50 tracks in one notice.' }),
  goodFaith: z.literal(true, { error: 'Confirm the good faith statement.' }),
  accuracy: z.literal(true, { error: 'Confirm the accuracy statement.' }),
  signature: text(200, 'Sign with your full name.'),
});

/** The track ids of the URLs (`.../track/<id>`) or bare ids; null names the first bad one. */
export function trackIdsOf(urls: string[]): { ids: string[] } | { bad: string } {
  const ids: string[] = [];
  for (const raw of urls) {
    const id = raw.trim().match(UUID)?.[0]?.toLowerCase();
    if (!id) return { bad: raw };
    if (!ids.includes(id)) ids.push(id);
  }
  return { ids };
}

export const handler = withCors(async (req, ctx) => {
  if (req.method !== 'POST') return errorResponse('Method not allowed', 405);
  const body = await readBody(req, NoticeBody);
  const tracks = trackIdsOf(body.trackUrls);
  if ('bad' in tracks)
    return errorResponse(`Not a Soundloft track link: ${tracks.bad.slice(0, 100)}`);
  // The relay sets X-Forwarded-For (Supabase Edge's, and server/functions/app.ts).
  const ip = req.headers.get('x-forwarded-for')?.split(',')[0]?.trim() || 'unknown';
  const { data, error } = await ctx.serviceClient().rpc('copyright_submit_notice', {
    p_claimant_name: body.claimantName,
    p_email: body.email,
    p_address: body.address ?? '',
    p_phone: body.phone ?? '',
    p_work: body.work,
    p_track_ids: tracks.ids,
    p_good_faith: body.goodFaith,
    p_accuracy: body.accuracy,
    p_signature: body.signature,
    p_client_ip: ip,
  });
  if (error) {
    const status = rpcErrorStatus(error.code); // PT429: the rate limit
    if (status >= 500) {
      console.error('[copyright-notice]', error);
      return errorResponse('The notice could not be recorded. Try again later.', 500);
    }
    return errorResponse(error.message, status);
  }
  const result = data as { notice_ids: string[]; received_at: string; removal_due: string };
  return json(
    {
      noticeIds: result.notice_ids,
      receivedAt: result.received_at,
      removalDue: result.removal_due,
    },
    201,
  );
});
