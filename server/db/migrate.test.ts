import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listMigrations, migrate, runBootstrap } from './migrate';
import { testDatabaseKind } from './test-database';
import { useTestDatabase } from './use-test-database';

const test = useTestDatabase();

/** Spec §3's tables and columns, by their spec names. */
const SPEC_COLUMNS: Record<string, string[]> = {
  profiles: [
    'id',
    'name',
    'email',
    'avatar_url',
    'bio',
    'social_links',
    'featured_track',
    'featured_playlist',
    'subscription_plan',
    'stripe_customer_id',
    'monthly_uploads',
    'balance',
    'followers',
    'created_at',
    'updated_at',
  ],
  tracks: [
    'id',
    'title',
    'artist',
    'album',
    'genre',
    'duration',
    'audio_url',
    'cover_image',
    'uploaded_by',
    'plays',
    'verified',
    'created_at',
    'updated_at',
  ],
  track_lyrics: ['track_id', 'lyrics', 'language', 'is_synced', 'updated_at', 'last_edited_by'],
  liked_tracks: ['id', 'user_id', 'track_id', 'created_at'],
  playlists: ['id', 'name', 'description', 'cover_image', 'created_by', 'created_at', 'track_ids'],
  followers: ['follower_id', 'following_id'],
  listening_history: ['user_id', 'track_id', 'listened_at'],
  withdrawals: ['id', 'user_id', 'amount', 'method', 'details', 'status', 'created_at'],
  plans: [
    'id',
    'name',
    'price_eur',
    'monthly_upload_limit',
    'description',
    'badge',
    'features',
    'audio_quality',
  ],
  admins: ['user_id'],
  earnings_ledger: ['id', 'user_id', 'amount', 'kind', 'track_id', 'listener_id', 'created_at'],
  play_events: ['listener_id', 'track_id', 'session_id', 'played_at', 'counted'],
};

describe(`migrations (${testDatabaseKind()})`, () => {
  it('applies every migration once, in order, and a second run is a no-op', async () => {
    const { rows } = await test.db.query<{ version: string }>(
      'select version from supabase_migrations.schema_migrations order by version',
    );
    expect(rows.map((r) => r.version)).toEqual(listMigrations().map((m) => m.version));
    expect(await migrate(test.db)).toEqual([]);
    await runBootstrap(test.db); // idempotent too
    expect(await migrate(test.db)).toEqual([]);
  });

  it('applies a failing migration not at all, records nothing, and stops there', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'soundloft-migrations-'));
    try {
      writeFileSync(join(dir, '29990101000000_good.sql'), 'create table public.zz_good (id int);');
      writeFileSync(
        join(dir, '29990101000001_bad.sql'),
        'create table public.zz_half (id int);\ninsert into public.zz_half values (1);\nselect 1/0;',
      );
      writeFileSync(
        join(dir, '29990101000002_never.sql'),
        'create table public.zz_never (id int);',
      );
      await expect(migrate(test.db, dir)).rejects.toThrow('Migration 29990101000001_bad failed');
      const { rows } = await test.db.query(
        `select to_regclass('public.zz_good') is not null as good, to_regclass('public.zz_half') is not null as half,
                to_regclass('public.zz_never') is not null as never,
                (select count(*) from supabase_migrations.schema_migrations where version like '2999%') as recorded`,
      );
      expect(rows[0]).toEqual({ good: true, half: false, never: false, recorded: '1' });
    } finally {
      await test.db.exec(`drop table if exists public.zz_good;
        delete from supabase_migrations.schema_migrations where version like '2999%';`);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('has every table and column of the spec', async () => {
    const { rows } = await test.db.query<{ table_name: string; column_name: string }>(
      `select table_name, column_name from information_schema.columns where table_schema = 'public'`,
    );
    for (const [table, columns] of Object.entries(SPEC_COLUMNS)) {
      const actual = rows.filter((r) => r.table_name === table).map((r) => r.column_name);
      expect(actual, table).toEqual(expect.arrayContaining(columns));
    }
  });

  it('enables RLS on every table of public and storage, each with at least one policy but the internal ones', async () => {
    const { rows } = await test.db.query<{ name: string; rls: boolean; policies: string }>(
      `select n.nspname || '.' || c.relname as name, c.relrowsecurity as rls,
              (select count(*) from pg_policies p where p.schemaname = n.nspname and p.tablename = c.relname) as policies
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where c.relkind = 'r' and n.nspname in ('public', 'storage')`,
    );
    expect(rows.length).toBeGreaterThanOrEqual(14);
    for (const row of rows) {
      expect(row.rls, row.name).toBe(true);
      // Internal tables: only the server's own connection reads them (no grants, no policies).
      if (
        ![
          'public.admin_emails',
          'public.track_jobs',
          'public.storage_garbage',
          'public.stem_jobs',
          'public.served_audio',
          'storage.upload_locks',
        ].includes(row.name)
      )
        expect(Number(row.policies), row.name).toBeGreaterThan(0);
    }
  });

  it('makes every security definer function pin its search_path', async () => {
    const { rows } = await test.db.query<{ name: string; config: string[] | null }>(
      `select p.proname as name, p.proconfig as config from pg_proc p join pg_namespace n on n.oid = p.pronamespace
       where n.nspname = 'public' and p.prosecdef`,
    );
    expect(rows.length).toBeGreaterThan(5);
    for (const row of rows) expect(row.config ?? [], row.name).toContain('search_path=""');
  });

  it('provides what hosted Supabase has: roles, auth and storage helpers', async () => {
    const roles = await test.db.query<{ rolname: string; rolbypassrls: boolean }>(
      `select rolname, rolbypassrls from pg_roles where rolname in ('anon', 'authenticated', 'service_role', 'authenticator') order by rolname`,
    );
    expect(roles.rows).toEqual([
      { rolname: 'anon', rolbypassrls: false },
      { rolname: 'authenticated', rolbypassrls: false },
      { rolname: 'authenticator', rolbypassrls: false },
      { rolname: 'service_role', rolbypassrls: true },
    ]);
    const { rows } = await test.db.query(
      `select storage.foldername('u1/covers/a.b.png') as folders, storage.filename('u1/covers/a.b.png') as file,
              storage.extension('u1/covers/a.b.png') as ext`,
    );
    expect(rows[0]).toEqual({ folders: ['u1', 'covers'], file: 'a.b.png', ext: 'png' });
    const auth = await test.db.query<{ name: string }>(
      `select table_name as name from information_schema.tables where table_schema = 'auth' order by 1`,
    );
    expect(auth.rows.map((r) => r.name)).toEqual([
      'flow_state',
      'identities',
      'mfa_amr_claims',
      'mfa_challenges',
      'mfa_factors',
      'rate_limits',
      'refresh_tokens',
      'sessions',
      'users',
    ]);
    const buckets = await test.db.query<{ id: string; public: boolean }>(
      'select id, public from storage.buckets order by id',
    );
    expect(buckets.rows).toEqual([
      { id: 'avatars', public: true },
      { id: 'covers', public: true },
      { id: 'exports', public: false },
      { id: 'renditions', public: false },
      { id: 'stems', public: false },
      { id: 'tracks', public: false },
    ]);
  });

  it('reads auth.uid(), auth.role() and auth.jwt() from request.jwt.claims and the older request.jwt.claim.sub', async () => {
    const sub = '8a0f8f0e-6a57-4c1c-9a3c-0b7f5f1f1c11';
    const fromClaims = await test.db.transaction(async (tx) => {
      await tx.query(`select set_config('request.jwt.claims', $1, true)`, [
        JSON.stringify({ sub, role: 'authenticated', email: 'a@b.c' }),
      ]);
      return (
        await tx.query(
          'select auth.uid() as uid, auth.role() as role, auth.jwt() ->> $1 as email, auth.email() as e',
          ['email'],
        )
      ).rows[0];
    });
    expect(fromClaims).toEqual({ uid: sub, role: 'authenticated', email: 'a@b.c', e: 'a@b.c' });
    const legacy = await test.db.transaction(async (tx) => {
      await tx.query(`select set_config('request.jwt.claim.sub', $1, true)`, [sub]);
      return (await tx.query('select auth.uid() as uid')).rows[0];
    });
    expect(legacy).toEqual({ uid: sub });
    expect((await test.db.query('select auth.uid() as uid')).rows[0]).toEqual({ uid: null });
  });

  it('returns exact types the same way on both drivers', async () => {
    const { rows } = await test.db.query(
      `select 0.0021::numeric(12,4) as n, 9007199254740993::int8 as big, 3::int4 as i, true as b,
              '2026-01-02T03:04:05.123456Z'::timestamptz as t, '{"a":[1]}'::jsonb as j, array[1,2]::int[] as arr`,
    );
    expect(rows[0]).toEqual({
      n: '0.0021',
      big: '9007199254740993',
      i: 3,
      b: true,
      t: '2026-01-02 03:04:05.123456+00',
      j: { a: [1] },
      arr: [1, 2],
    });
  });
});
