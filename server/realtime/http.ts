/**
 * Realtime's REST broadcast endpoints under /realtime/v1 (supabase/realtime's router):
 * - `POST /api/broadcast` {messages: [{topic, event, payload, private?, id?}]}
 *   (`BroadcastController`; realtime-js's `channel.send()` when the channel is not joined);
 * - `POST /api/broadcast/:topic/events/:event[?private=true]`, the body is the payload, JSON or
 *   `application/octet-stream` (`BroadcastSingleController`; realtime-js's `httpSend()`).
 * Both answer 202 with no body. The caller is the JWT of `Authorization: Bearer` or else of the
 * `apikey` header (401 `{"message":"Unauthorized"}` without a valid one). A private message needs
 * the caller's broadcast write policy on realtime.messages: the batch endpoint drops the
 * messages of a topic it may not write (and still answers 202), the single one answers 403.
 */
import type { JwtSecrets } from '../keys/keys';
import { Hono, type Context } from 'hono';
import type { Database } from '../db/database';
import { checkToken } from './auth';
import { mayWrite } from './authorization';
import type { RealtimeServer } from './server';

function bearer(c: Context): string | null {
  const authorization = c.req.header('authorization');
  if (authorization) {
    const [scheme, token] = authorization.split(' ');
    if (scheme?.toLowerCase() === 'bearer' && token) return token;
  }
  return c.req.header('apikey') ?? null;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export function createRealtimeApp(opts: {
  db: Database;
  /** JWT_SECRET, or with JWT_SECRET_PREVIOUS during a rotation (verificationSecrets). */
  jwtSecret: JwtSecrets;
  server: RealtimeServer;
}): Hono {
  const { db, jwtSecret, server } = opts;
  const app = new Hono();
  const maxPayload = server.limits.maxPayloadBytes;

  const caller = async (c: Context) => {
    const check = await checkToken(bearer(c), jwtSecret);
    return check.ok ? check.claims : null;
  };
  const unauthorized = (c: Context) => c.json({ message: 'Unauthorized' }, 401);

  app.post('/api/broadcast', async (c) => {
    const claims = await caller(c);
    if (!claims) return unauthorized(c);
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      return c.json({ errors: { messages: ["can't be blank"] } }, 422);
    }
    const messages = isRecord(body) && Array.isArray(body.messages) ? body.messages : null;
    if (!messages || messages.length === 0)
      return c.json({ errors: { messages: ["can't be blank"] } }, 422);
    const errors = messages.map((m) => {
      const e: Record<string, string[]> = {};
      if (!isRecord(m)) return { messages: ['is invalid'] };
      for (const field of ['topic', 'event'] as const)
        if (typeof m[field] !== 'string' || m[field] === '') e[field] = ["can't be blank"];
      if (!isRecord(m.payload))
        e.payload = [m.payload === undefined ? "can't be blank" : 'is invalid'];
      else if (Buffer.byteLength(JSON.stringify(m.payload)) > maxPayload)
        e.payload = ['Payload size exceeds tenant limit'];
      return e;
    });
    if (errors.some((e) => Object.keys(e).length > 0))
      return c.json({ errors: { messages: errors } }, 422);
    const writable = new Map<string, Promise<boolean>>();
    for (const m of messages as Record<string, unknown>[]) {
      const topic = m.topic as string;
      const isPrivate = m.private === true;
      if (isPrivate) {
        let allowed = writable.get(topic);
        if (!allowed) {
          allowed = mayWrite(db, claims, topic, 'broadcast').catch(() => false);
          writable.set(topic, allowed);
        }
        if (!(await allowed)) continue;
      }
      server.broadcastFromServer(
        {
          kind: 'json',
          topic,
          event: m.event as string,
          payload: m.payload,
          ...(typeof m.id === 'string' ? { id: m.id } : {}),
        },
        isPrivate,
      );
    }
    return c.body(null, 202);
  });

  app.post('/api/broadcast/:topic/events/:event', async (c) => {
    const type = c.req.header('content-type')?.split(';')[0]?.trim().toLowerCase();
    if (type && type !== 'application/json' && type !== 'application/octet-stream')
      return c.json(
        { error: 'Unsupported Media Type. Use application/json or application/octet-stream' },
        415,
      );
    const claims = await caller(c);
    if (!claims) return unauthorized(c);
    const topic = c.req.param('topic');
    const event = c.req.param('event');
    const isPrivate = ['true', '1'].includes(c.req.query('private') ?? '');
    const bytes = Buffer.from(await c.req.arrayBuffer());
    const binary = type === 'application/octet-stream';
    if (!binary) {
      try {
        JSON.parse(bytes.toString('utf8'));
      } catch {
        return c.json({ errors: { payload: ["can't be blank"] } }, 422);
      }
    }
    if (bytes.length > maxPayload)
      return c.json({ errors: { payload: ['Payload size exceeds tenant limit'] } }, 422);
    if (isPrivate && !(await mayWrite(db, claims, topic, 'broadcast').catch(() => false)))
      return c.json({ message: 'Unauthorized' }, 403);
    server.broadcastFromServer(
      { kind: 'user', topic, event, encoding: binary ? 0 : 1, bytes },
      isPrivate,
    );
    return c.body(null, 202);
  });

  return app;
}
