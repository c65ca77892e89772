/**
 * The test clock over HTTP, for end-to-end tests (never mounted in production; a production
 * server refuses to start with a non-zero offset: server/production-check.ts):
 * `GET /_dev/clock` → `{offsetSeconds, now}`; `POST /_dev/clock {"advanceDays": n}` or
 * `{"offsetSeconds": s}` moves `public.app_clock()` and applies the deadlines that became due
 * (`copyright_tick`) before answering, then wakes the mail outbox so their e-mails go out.
 */
import { Hono } from 'hono';
import type { Database } from '../db/database';
import { copyrightTick } from './jobs';

async function readClock(db: Database) {
  const { rows } = await db.query<{ seconds: number; now: string }>(
    `select extract(epoch from offset_by)::float8 as seconds, public.app_clock()::text as now
       from public.app_clock_offset where id`,
  );
  return { offsetSeconds: Number(rows[0]?.seconds ?? 0), now: rows[0]?.now ?? null };
}

export function createDevClockApp(db: Database, kick: () => void): Hono {
  const app = new Hono();
  app.get('/clock', async (c) => c.json(await readClock(db)));
  app.post('/clock', async (c) => {
    const body = (await c.req.json().catch(() => null)) as {
      advanceDays?: unknown;
      offsetSeconds?: unknown;
    } | null;
    const days = body?.advanceDays;
    const seconds = body?.offsetSeconds;
    if (typeof days === 'number' && Number.isFinite(days) && days >= 0 && days <= 3650) {
      await db.query(
        `update public.app_clock_offset set offset_by = offset_by + make_interval(secs => $1::float8) where id`,
        [days * 86400],
      );
    } else if (typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0) {
      await db.query(
        `update public.app_clock_offset set offset_by = make_interval(secs => $1::float8) where id`,
        [seconds],
      );
    } else {
      return c.json(
        { error: 'Send {"advanceDays": n} or {"offsetSeconds": s}, not negative.' },
        400,
      );
    }
    const applied = await copyrightTick(db);
    kick();
    return c.json({ ...(await readClock(db)), applied });
  });
  return app;
}
