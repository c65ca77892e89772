/**
 * Migration 20261201040000_one_mail_outbox.sql on a database that has rows in both outboxes: the
 * moderation rows move into `mail_outbox` with their state (sent or not, attempts, error), the
 * copyright rows stay as they were, and `moderation_mail_outbox` is gone. On PGlite: the
 * migrations before it from an empty database, rows written, then the rest.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database';
import { migrate } from '../db/migrate';
import { openPglite } from '../db/pglite';
import { migrateBefore } from '../db/test-database';
import { createUser } from '../db/test-factories';

const ONE_OUTBOX = '20261201040000';
let db: Database;

beforeAll(async () => {
  db = await openPglite('memory');
  await migrateBefore(db, ONE_OUTBOX);
}, 300_000);
afterAll(async () => {
  await db?.close();
});

describe('migration 20261201040000 (one mail outbox)', () => {
  it('moves the moderation rows with their state and keeps the copyright rows', async () => {
    const user = await createUser(db);
    await db.exec(`
      insert into public.mail_outbox (template, to_email, params, attempts, last_error)
        values ('copyright_rejected', 'claimant@rights.test', '{"notice_id": "n-1"}', 2, 'smtp down');
      insert into public.moderation_mail_outbox (to_user, kind, subject, body, sent_at, attempts)
        values ('${user.id}', 'sanction.warning', 'A warning', 'Reason: spam.', now(), 1);
      insert into public.moderation_mail_outbox (to_email, kind, subject, body, attempts, last_error)
        values ('someone@example.test', 'appeal.received', 'We received your appeal', 'Body', 3, 'refused');
    `);
    expect(await migrate(db)).toContain(ONE_OUTBOX);
    const { rows } = await db.query<Record<string, unknown>>(
      `select template, to_user, to_email, subject, body, params, attempts, last_error,
              sent_at is not null as sent
         from public.mail_outbox order by id`,
    );
    expect(rows).toEqual([
      {
        template: 'copyright_rejected',
        to_user: null,
        to_email: 'claimant@rights.test',
        subject: null,
        body: null,
        params: { notice_id: 'n-1' },
        attempts: 2,
        last_error: 'smtp down',
        sent: false,
      },
      {
        template: 'sanction.warning',
        to_user: user.id,
        to_email: null,
        subject: 'A warning',
        body: 'Reason: spam.',
        params: {},
        attempts: 1,
        last_error: null,
        sent: true,
      },
      {
        template: 'appeal.received',
        to_user: null,
        to_email: 'someone@example.test',
        subject: 'We received your appeal',
        body: 'Body',
        params: {},
        attempts: 3,
        last_error: 'refused',
        sent: false,
      },
    ]);
    const gone = await db.query<{ t: string | null }>(
      `select to_regclass('public.moderation_mail_outbox')::text as t`,
    );
    expect(gone.rows[0]!.t).toBeNull();
  });
});
