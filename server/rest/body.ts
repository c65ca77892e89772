/**
 * Request bodies of /rest/v1, bounded. PostgREST leaves the limit to the gateway in front of it
 * (Supabase's); the embedded server is its own gateway. Without a bound, one 10 MB POST of
 * 100,000 small rows held PGlite's only connection for over a minute while every other request
 * waited (found by tests/security/bad-requests.test.ts).
 */
import { readCapped } from '../lib/read-capped';
import { RestError } from './errors';

/** Largest body a request may send (1 MiB: the app's largest write, a lyrics sheet, is ~50 KB). */
export const MAX_BODY_BYTES = 1024 * 1024;
/** Most rows one insert or upsert may carry (the app writes one at a time; the outbox ≤ 100). */
export const MAX_WRITE_ROWS = 1000;

export const tooLarge = (message: string) => new RestError(413, 'PGRST413', message);

/** Reads the body as text, refusing it (413) once it passes `limit` bytes, without buffering more. */
export async function readBoundedText(request: Request, limit = MAX_BODY_BYTES): Promise<string> {
  const bytes = await readCapped(request, limit, () =>
    tooLarge(`Request body larger than ${limit} bytes`),
  );
  return new TextDecoder().decode(bytes);
}
