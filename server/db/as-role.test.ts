import { describe, expect, it } from 'vitest';
import { asRole, requestContextStatement, roleOf } from './as-role';
import { testDatabaseKind } from './test-database';
import { useTestDatabase } from './use-test-database';

const test = useTestDatabase();

const SUB = '0b6a0b9e-3a52-4a0e-9d43-6a3f2a1b9c01';
const CLAIMS = { sub: SUB, role: 'authenticated', email: 'a@example.test', session_id: 's1' };

describe(`asRole (${testDatabaseKind()})`, () => {
  it('runs as the JWT role with the claims and request details PostgREST publishes', async () => {
    const row = await asRole(
      test.db,
      CLAIMS,
      async (tx) =>
        (
          await tx.query(
            `select current_user as role, auth.uid() as uid, auth.role() as jwt_role, auth.jwt() ->> 'session_id' as session,
                    current_setting('request.method') as method, current_setting('request.path') as path,
                    current_setting('request.headers')::jsonb ->> 'x-client-info' as client`,
          )
        ).rows[0],
      { method: 'GET', path: '/rest/v1/tracks', headers: { 'X-Client-Info': 'supabase-js/2' } },
    );
    expect(row).toEqual({
      role: 'authenticated',
      uid: SUB,
      jwt_role: 'authenticated',
      session: 's1',
      method: 'GET',
      path: '/rest/v1/tracks',
      client: 'supabase-js/2',
    });
  });

  it('runs as anon without claims, and nothing leaks to the next statement', async () => {
    const anon = await asRole(
      test.db,
      null,
      async (tx) => (await tx.query('select current_user as role, auth.uid() as uid')).rows[0],
    );
    expect(anon).toEqual({ role: 'anon', uid: null });
    await asRole(test.db, CLAIMS, async () => undefined);
    const after = await test.db.query(
      `select current_user as role, auth.uid() as uid, coalesce(current_setting('request.jwt.claims', true), '') as claims`,
    );
    expect(after.rows[0]).toMatchObject({ role: 'postgres', uid: null, claims: '' });
  });

  it('rolls back everything when fn throws', async () => {
    await expect(
      asRole(test.db, { role: 'service_role' }, async (tx) => {
        await tx.query(`insert into public.admin_emails (email) values ('rollback@example.test')`);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    const { rows } = await test.db.query(
      `select * from public.admin_emails where email = 'rollback@example.test'`,
    );
    expect(rows).toEqual([]);
  });

  it('never lets concurrent requests see each other inside a transaction', async () => {
    const users = Array.from(
      { length: 20 },
      (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    );
    const seen = await Promise.all(
      users.map((sub) =>
        asRole(test.db, { sub, role: 'authenticated' }, async (tx) => {
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 5));
          const first = (await tx.query<{ uid: string }>('select auth.uid() as uid')).rows[0]!.uid;
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 5));
          const second = (await tx.query<{ uid: string }>('select auth.uid() as uid')).rows[0]!.uid;
          return [first, second];
        }),
      ),
    );
    expect(seen).toEqual(users.map((u) => [u, u]));
  });

  it('runs a batch (context, statements) as the role, and nothing leaks to the next statement', async () => {
    const sql = `select current_user as role, auth.uid() as uid, $1::text as tag`;
    // More calls than Postgres plans before it may switch a prepared statement to a generic
    // plan, alternating roles: every answer is the caller's own.
    for (let i = 0; i < 12; i++) {
      const claims = i % 2 === 0 ? CLAIMS : null;
      const results = await test.db.batch([
        requestContextStatement(claims, { method: 'GET', path: '/rest/v1/x' }),
        { sql, params: [`call ${i}`] },
      ]);
      expect(results.at(-1)?.rows).toEqual([
        i % 2 === 0
          ? { role: 'authenticated', uid: SUB, tag: `call ${i}` }
          : { role: 'anon', uid: null, tag: `call ${i}` },
      ]);
      const after = await test.db.query(
        `select current_user as role, coalesce(current_setting('request.jwt.claims', true), '') as claims`,
      );
      expect(after.rows[0]).toEqual({ role: 'postgres', claims: '' });
    }
  });

  it("rolls a batch back as a whole and throws the failing statement's own error", async () => {
    const failing = test.db.batch([
      requestContextStatement({ role: 'service_role' }),
      {
        sql: `insert into public.admin_emails (email) values ($1)`,
        params: ['batch@example.test'],
      },
      { sql: `select 1 / $1::int`, params: [0] },
      { sql: `select $1::text`, params: ['never'] },
    ]);
    await expect(failing).rejects.toMatchObject({ code: '22012' }); // division_by_zero, not 25P02
    const { rows } = await test.db.query(
      `select * from public.admin_emails where email = 'batch@example.test'`,
    );
    expect(rows).toEqual([]);
    expect((await test.db.query('select current_user as role')).rows[0]).toEqual({
      role: 'postgres',
    });
  });

  it("fails a transaction whose prelude fails with the prelude's error; its statements never run", async () => {
    let ran: unknown;
    const failing = test.db.transaction(
      async (tx) => {
        ran = await tx.query(
          `insert into public.admin_emails (email) values ($1) returning email`,
          ['prelude@example.test'],
        );
        return ran;
      },
      { prelude: [{ sql: `select set_config('role', $1, true)`, params: ['no_such_role'] }] },
    );
    await expect(failing).rejects.toThrow('no_such_role');
    expect(ran).toBeUndefined();
    const { rows } = await test.db.query(
      `select * from public.admin_emails where email = 'prelude@example.test'`,
    );
    expect(rows).toEqual([]);
  });

  it.skipIf(testDatabaseKind() !== 'pglite')(
    'fails loudly (instead of deadlocking) when PGlite is used directly inside a transaction',
    async () => {
      await expect(test.db.transaction(() => test.db.query('select 1'))).rejects.toThrow(
        'query through its tx argument',
      );
      expect((await test.db.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
    },
  );

  it('refuses roles other than anon, authenticated and service_role', () => {
    expect(roleOf({ role: 'service_role' })).toBe('service_role');
    expect(() => roleOf({ role: 'postgres' })).toThrow('role "postgres" does not exist');
    expect(() => roleOf({ role: 42 })).toThrow();
  });
});
