/** RLS matrix cases of money, plans, admin and storage tables. */
import { ALL_DENIED, ALL_OK, type Case } from './types';

export const INTERNAL_CASES: Record<string, Case[]> = {
  withdrawals: [
    {
      name: 'select',
      sql: (f) => ['select * from withdrawals where id = $1', [f.withdrawalO]],
      expect: ['denied', 'ok', 'hidden', 'ok'],
    },
    {
      name: 'insert',
      sql: (f) => [
        `insert into withdrawals (user_id, amount, method, details) values ($1, 5, 'paypal', 'a@b.c')`,
        [f.owner.id],
      ],
      expect: ALL_DENIED,
    },
    {
      name: 'update status',
      sql: (f) => [`update withdrawals set status = 'completed' where id = $1`, [f.withdrawalO]],
      expect: ALL_DENIED,
    },
    {
      name: 'delete',
      sql: (f) => ['delete from withdrawals where id = $1', [f.withdrawalO]],
      expect: ALL_DENIED,
    },
  ],
  earnings_ledger: [
    {
      name: 'select',
      sql: (f) => ['select * from earnings_ledger where user_id = $1', [f.owner.id]],
      expect: ['denied', 'ok', 'hidden', 'ok'],
    },
    {
      name: 'insert',
      sql: (f) => [
        `insert into earnings_ledger (user_id, amount, kind) values ($1, 100, 'play')`,
        [f.owner.id],
      ],
      expect: ALL_DENIED,
    },
    {
      name: 'update',
      sql: (f) => ['update earnings_ledger set amount = 100 where user_id = $1', [f.owner.id]],
      expect: ALL_DENIED,
    },
    {
      name: 'delete',
      sql: (f) => ['delete from earnings_ledger where user_id = $1', [f.owner.id]],
      expect: ALL_DENIED,
    },
  ],
  play_events: [
    {
      name: 'select',
      sql: (f) => ['select * from play_events where listener_id = $1', [f.owner.id]],
      expect: ['denied', 'ok', 'hidden', 'ok'],
    },
    {
      name: 'insert',
      sql: (f) => [
        `insert into play_events (listener_id, track_id, session_id) values ($1, $2, 'x')`,
        [f.owner.id, f.trackX],
      ],
      expect: ALL_DENIED,
    },
    {
      name: 'update',
      sql: (f) => ['update play_events set counted = false where listener_id = $1', [f.owner.id]],
      expect: ALL_DENIED,
    },
    {
      name: 'delete',
      sql: (f) => ['delete from play_events where listener_id = $1', [f.owner.id]],
      expect: ALL_DENIED,
    },
  ],
  // The evidence of plays: the server's own (docs/plays.md); no API role reads or writes it.
  served_audio: [
    {
      name: 'select',
      sql: (f) => ['select * from served_audio where listener_id = $1', [f.owner.id]],
      expect: ALL_DENIED,
    },
    {
      name: 'insert',
      sql: (f) => [
        `insert into served_audio (listener_id, track_id, object, object_size, bytes) values ($1, $2, 'x', 10, '{[0,10)}')`,
        [f.owner.id, f.trackX],
      ],
      expect: ALL_DENIED,
    },
    {
      name: 'update',
      sql: (f) => [
        `update served_audio set first_served_at = now() - interval '1 hour' where listener_id = $1`,
        [f.owner.id],
      ],
      expect: ALL_DENIED,
    },
    {
      name: 'delete',
      sql: (f) => ['delete from served_audio where listener_id = $1', [f.owner.id]],
      expect: ALL_DENIED,
    },
  ],
  track_downloads: [
    {
      name: 'select',
      sql: (f) => ['select * from track_downloads where user_id = $1', [f.owner.id]],
      expect: ['denied', 'ok', 'hidden', 'ok'],
    },
    {
      name: 'insert',
      sql: (f) => [
        `insert into track_downloads (user_id, track_id, object, valid_until) values ($1, $2, 'x', now() + interval '1 year')`,
        [f.owner.id, f.trackO2],
      ],
      expect: ALL_DENIED,
    },
    {
      name: 'update',
      sql: (f) => [
        `update track_downloads set downloaded_at = now() - interval '1 year' where user_id = $1`,
        [f.owner.id],
      ],
      expect: ALL_DENIED,
    },
    {
      name: 'delete',
      sql: (f) => ['delete from track_downloads where user_id = $1', [f.owner.id]],
      expect: ALL_DENIED,
    },
  ],
  plans: [
    { name: 'select', sql: () => [`select * from plans where id = 'free'`, []], expect: ALL_OK },
    {
      name: 'insert',
      sql: () => [
        `insert into plans (id, name, price_eur, description, audio_quality, audio_lossless, offline_downloads, ads, sort_order) values ('gold', 'Gold', 0, '', 'x', false, false, false, 9)`,
        [],
      ],
      expect: ALL_DENIED,
    },
    {
      name: 'update',
      sql: () => [`update plans set monthly_upload_limit = null where id = 'free'`, []],
      expect: ALL_DENIED,
    },
    { name: 'delete', sql: () => [`delete from plans where id = 'basic'`, []], expect: ALL_DENIED },
  ],
  admins: [
    {
      name: 'select',
      sql: (f) => ['select * from admins where user_id = $1', [f.admin.id]],
      expect: ['denied', 'hidden', 'hidden', 'ok'],
    },
    {
      name: 'insert',
      sql: (f) => ['insert into admins (user_id) values ($1)', [f.owner.id]],
      expect: ALL_DENIED,
    },
    {
      name: 'update',
      sql: (f) => ['update admins set user_id = $2 where user_id = $1', [f.admin.id, f.owner.id]],
      expect: ALL_DENIED,
    },
    {
      name: 'delete',
      sql: (f) => ['delete from admins where user_id = $1', [f.admin.id]],
      expect: ALL_DENIED,
    },
  ],
  admin_emails: [
    { name: 'select', sql: () => ['select * from admin_emails', []], expect: ALL_DENIED },
    {
      name: 'insert',
      sql: (f) => ['insert into admin_emails (email) values ($1)', [f.owner.email]],
      expect: ALL_DENIED,
    },
    {
      name: 'update',
      sql: (f) => ['update admin_emails set email = $1', [f.owner.email]],
      expect: ALL_DENIED,
    },
    { name: 'delete', sql: () => ['delete from admin_emails', []], expect: ALL_DENIED },
  ],
  'storage.objects': [
    {
      name: 'select',
      sql: (f) => [`select * from storage.objects where name = $1`, [`${f.owner.id}/cover.png`]],
      expect: ALL_OK,
    },
    {
      name: 'insert into the owner folder',
      sql: (f) => [
        `insert into storage.objects (bucket_id, name, owner_id) values ('covers', $1, $2)`,
        [`${f.owner.id}/new.png`, f.owner.id],
      ],
      expect: ['denied', 'ok', 'denied', 'denied'],
    },
    {
      name: 'update',
      sql: (f) => [
        `update storage.objects set metadata = '{}' where name = $1`,
        [`${f.owner.id}/cover.png`],
      ],
      expect: ['hidden', 'ok', 'hidden', 'hidden'],
    },
    {
      name: 'delete',
      sql: (f) => [`delete from storage.objects where name = $1`, [`${f.owner.id}/cover.png`]],
      expect: ['hidden', 'ok', 'hidden', 'ok'],
    },
  ],
};
