/**
 * Migration 20261201120000_one_action_link_table.sql on a database that has the old rows: the
 * claimant's tokens move from `copyright_claimant_tokens` into `action_links` (purpose
 * legal_action, their links keep working), the ban mail's token moves out of its written body
 * (into params.action_token while unsent; a sent row keeps none), and a removal mail's
 * `counter_token` becomes `action_token`. On PGlite: the migrations before it, rows, the rest.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database';
import { migrate } from '../db/migrate';
import { openPglite } from '../db/pglite';
import { migrateBefore } from '../db/test-database';
import { createTrack, createUser } from '../db/test-factories';

const ONE_TABLE = '20261201120000';
let db: Database;

beforeAll(async () => {
  db = await openPglite('memory');
  await migrateBefore(db, ONE_TABLE);
}, 300_000);
afterAll(async () => {
  await db?.close();
});

const hex = (c: string) => c.repeat(64);

describe('migration 20261201120000 (one action-link table)', () => {
  it('moves the claimant tokens and takes every raw token out of the outbox bodies', async () => {
    const user = await createUser(db);
    const track = await createTrack(db, user);
    const notice = (
      await db.query<{ id: string }>(
        `insert into public.copyright_notices (submission_id, uploader_id, track_ids, claimant_name,
           work_description, good_faith_statement, accuracy_statement, signature, acknowledge_due,
           removal_due, status, removed_at, counter_at, restore_due)
         values (gen_random_uuid(), $1, array[$2::uuid], 'Clara Claimant', 'a work', true, true,
           'Clara Claimant', now() + interval '48 hours', now() + interval '5 days',
           'counter_noticed', now(), now(), now() + interval '14 days')
         returning id`,
        [user.id, track.id],
      )
    ).rows[0]!.id;
    await db.query(
      `insert into public.copyright_claimant_tokens (notice_id, purpose, token_hash, expires_at)
       values ($1, 'legal_action', sha256(convert_to($2, 'UTF8')), now() + interval '14 days')`,
      [notice, hex('a')],
    );
    const body = (t: string) =>
      `Your account is permanently banned.\n\nAppeal (for you only): {app}/appeals/link#t=${t}`;
    await db.query(
      `insert into public.mail_outbox (template, to_user, subject, body, params, sent_at)
       values ('sanction.ban', $1, 'Banned', $2, '{}', null),
              ('sanction.ban', $1, 'Banned', $3, '{}', now())`,
      [user.id, body(hex('b')), body(hex('c'))],
    );
    await db.query(
      `insert into public.mail_outbox (template, to_email, params)
       values ('copyright_removed', 'u@example.test', jsonb_build_object('counter_token', $1::text))`,
      [hex('d')],
    );

    expect(await migrate(db)).toContain(ONE_TABLE);

    const links = await db.query<Record<string, unknown>>(
      `select purpose, user_id, notice_id, token_hash = public.action_link_hash($2) as same
         from public.action_links where notice_id = $1`,
      [notice, hex('a')],
    );
    expect(links.rows).toEqual([
      { purpose: 'legal_action', user_id: null, notice_id: notice, same: true },
    ]);
    const info = await db.query<{ info: { notice_id: string } }>(
      `select public.copyright_claimant_legal_action_info($1) as info`,
      [hex('a')],
    );
    expect(info.rows[0]!.info.notice_id).toBe(notice);
    const gone = await db.query(`select to_regclass('public.copyright_claimant_tokens') as t`);
    expect(gone.rows).toEqual([{ t: null }]);

    const { rows } = await db.query<{ template: string; body: string | null; params: unknown }>(
      `select template, body, params from public.mail_outbox order by id`,
    );
    const placeholder = body('{action_token}');
    expect(rows).toEqual([
      { template: 'sanction.ban', body: placeholder, params: { action_token: hex('b') } },
      { template: 'sanction.ban', body: placeholder, params: {} },
      { template: 'copyright_removed', body: null, params: { action_token: hex('d') } },
    ]);
  });
});
