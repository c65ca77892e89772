/**
 * The one validator of every function's JSON body: a zod schema per function (zod, the library
 * the functions share on Node and Deno: `npm:zod@4` in import_map.json). Bodies are strict
 * objects: an unknown field, a wrong type, null where a value is required, an over-long string or
 * an out-of-range number is a 400 with a sentence naming the field, before anything is read or
 * written. A field may carry the spec's own message (`{ error: '…' }` in its schema).
 */
import { z } from 'zod';
import { HttpError, readJsonObject } from './http.ts';

export { z };

/** A 400 message for the first problem zod found: the field, then what is wrong. */
export function problemOf(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'The request body is not valid.';
  if (issue.code === 'unrecognized_keys') {
    return `Unknown field${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.join(', ')}.`;
  }
  const field = issue.path.map(String).join('.');
  // A custom message (the spec's sentences) stands alone; zod's own ones name the field.
  if (issue.message && !/^(Invalid|Too (big|small)|Expected)/.test(issue.message)) {
    return issue.message;
  }
  const what = issue.message.replace(/^Invalid input: /, '');
  return field ? `${field}: ${what}.` : `${what}.`;
}

/** The body read as JSON and checked against `schema`, or HttpError 400 with the problem. */
export async function readBody<S extends z.ZodType>(req: Request, schema: S): Promise<z.output<S>> {
  const parsed = schema.safeParse(await readJsonObject(req));
  if (!parsed.success) throw new HttpError(400, problemOf(parsed.error));
  return parsed.data;
}

/** The caller's own user id, as the app sends it (checked against the JWT by `ownCaller`). */
export const userIdField = z.uuid({ error: 'userId must be a user id.' }).optional();

/**
 * The HTTP status for an error of an RPC a function called, as PostgREST maps SQLSTATEs: the
 * caller's mistakes (P0001 raised messages, 22xxx data exceptions, 23xxx constraint violations,
 * PT4xx) are 4xx with the database's message; anything else is the function's 500.
 */
export function rpcErrorStatus(code: string | undefined): number {
  if (!code) return 500;
  if (code === '42501') return 401;
  if (/^PT4\d\d$/.test(code)) return Number(code.slice(2));
  if (code === 'P0001' || code.startsWith('22') || code.startsWith('23')) return 400;
  return 500;
}
