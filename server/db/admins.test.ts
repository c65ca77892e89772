import { describe, expect, it } from 'vitest';
import { parseAdminEmails, parseAdminRequireMfa, syncAdminRequireMfa, syncAdmins } from './admins';
import { asRole } from './as-role';
import { testDatabaseKind } from './test-database';
import { useTestDatabase } from './use-test-database';
import { createUser } from './test-factories';

const test = useTestDatabase();

async function isAdmin(claims: Record<string, unknown>): Promise<boolean> {
  return asRole(
    test.db,
    claims,
    async (tx) => (await tx.query<{ a: boolean }>('select public.is_admin() as a')).rows[0]!.a,
  );
}

describe('parseAdminEmails', () => {
  it('trims, lower-cases, de-duplicates, and defaults to admin@soundloft.local', () => {
    expect(parseAdminEmails(' A@x.io, b@y.io ,a@x.io,,')).toEqual(['a@x.io', 'b@y.io']);
    expect(parseAdminEmails(undefined)).toEqual(['admin@soundloft.local']);
    expect(parseAdminEmails('')).toEqual([]);
  });
});

describe(`syncAdmins (${testDatabaseKind()})`, () => {
  it('makes users with a configured, confirmed address admins, and only them', async () => {
    const boss = await createUser(test.db, { email: 'Boss@Example.test' });
    const impostor = await createUser(test.db, { email: 'later@example.test', confirmed: false });
    await syncAdmins(test.db, parseAdminEmails('boss@example.test, later@example.test'));
    expect(await isAdmin(boss.claims)).toBe(true);
    expect(await isAdmin(impostor.claims)).toBe(false); // unconfirmed address
    await test.db.query('update auth.users set email_confirmed_at = now() where id = $1', [
      impostor.id,
    ]);
    expect(await isAdmin(impostor.claims)).toBe(true);
    await syncAdmins(test.db, ['later@example.test']);
    expect(await isAdmin(boss.claims)).toBe(false);
  });

  it('makes a user who signs up later with a configured address an admin once confirmed', async () => {
    await syncAdmins(test.db, ['newcomer@example.test']);
    const user = await createUser(test.db, { email: 'newcomer@example.test' });
    expect(await isAdmin(user.claims)).toBe(true);
    expect(await isAdmin({ role: 'anon' })).toBe(false);
  });
});

describe('parseAdminRequireMfa', () => {
  it('is on in production and off elsewhere unless set; refuses other values', () => {
    expect(parseAdminRequireMfa(undefined, true)).toBe(true);
    expect(parseAdminRequireMfa(' ', false)).toBe(false);
    expect(parseAdminRequireMfa('off', true)).toBe(false);
    expect(parseAdminRequireMfa('ON', false)).toBe(true);
    expect(parseAdminRequireMfa('1', false)).toBe(true);
    expect(parseAdminRequireMfa('maybe', false)).toBeNull();
  });
});

describe(`syncAdminRequireMfa (${testDatabaseKind()})`, () => {
  it('writes the setting is_admin() reads: an admin without a second factor loses admin powers', async () => {
    const boss = await createUser(test.db, { email: 'mfa-boss@example.test' });
    await syncAdmins(test.db, ['mfa-boss@example.test']);
    try {
      await syncAdminRequireMfa(test.db, true);
      expect(await isAdmin(boss.claims)).toBe(false);
      expect(await isAdmin({ ...boss.claims, aal: 'aal2' })).toBe(false); // no verified factor
      await test.db.query(
        `insert into auth.mfa_factors (id, user_id, factor_type, status)
         values (gen_random_uuid(), $1, 'totp', 'verified')`,
        [boss.id],
      );
      expect(await isAdmin({ ...boss.claims, aal: 'aal2' })).toBe(true);
      expect(await isAdmin({ ...boss.claims, aal: 'aal1' })).toBe(false);
      await syncAdminRequireMfa(test.db, false);
      // Off: still no admin powers at aal1 once the account has a factor (it owes the code).
      expect(await isAdmin({ ...boss.claims, aal: 'aal1' })).toBe(false);
      await test.db.query('delete from auth.mfa_factors where user_id = $1', [boss.id]);
      expect(await isAdmin(boss.claims)).toBe(true);
    } finally {
      await syncAdminRequireMfa(test.db, false);
    }
  });
});
