/**
 * Request bodies of /rest/v1, bounded. PostgREST leaves the limit to the gateway in front of it
 * (Supabase's); the embedded server is its own gateway. Without a bound, one 10 MB POST of
 * 100,000 small rows held PGlite's only connection for over a minute while every other request
 * waited (found by tests/security/bad-requests.test.ts).
 */
import type { IncomingMessage } from 'node:http';
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

/**
 * readBoundedText straight from Node's request, when the server is node:http (@hono/node-server
 * passes it as `env.incoming`): no Fetch body stream (`Readable.toWeb`, a promise per chunk).
 * The bench's writes spent ≈ 300 µs of CPU more per request than reads with the stream
 * (docs/rest-api.md#speed). Past `limit` it stops reading and pauses; the adapter drains or
 * closes what is left after the 413, as it does for any body a route did not read. A client
 * that goes away mid-body rejects with Node's `aborted` (ECONNRESET): 400, as before.
 */
export function readIncomingText(
  incoming: IncomingMessage,
  limit = MAX_BODY_BYTES,
): Promise<string> {
  const tooBig = () => tooLarge(`Request body larger than ${limit} bytes`);
  const declared = Number(incoming.headers['content-length'] ?? NaN);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(tooBig());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const stop = () => {
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', onError);
    };
    const onData = (chunk: Buffer) => {
      total += chunk.byteLength;
      if (total > limit) {
        stop();
        incoming.pause();
        reject(tooBig());
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      stop();
      resolve(new TextDecoder().decode(Buffer.concat(chunks, total)));
    };
    const onError = (err: Error) => {
      stop();
      reject(err);
    };
    incoming.on('data', onData);
    incoming.on('end', onEnd);
    incoming.on('error', onError);
  });
}
