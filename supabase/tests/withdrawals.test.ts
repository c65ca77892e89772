/**
 * Withdrawals through request_withdrawal / process_withdrawal: validation messages of the spec,
 * no double spend, admin-only processing, and a rejection returns the amount (ledger reversal).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { asRole, type JwtClaims } from '../../server/db/as-role';
import { DATABASE_HOOK_TIMEOUT_MS, testDatabaseKind } from '../../server/db/test-database';
import { useTestDatabase } from '../../server/db/use-test-database';
import { createAdmin, createUserWithBalance, type TestUser } from '../../server/db/test-factories';

const test = useTestDatabase();
let admin: TestUser;
beforeAll(async () => {
  admin = await createAdmin(test.db);
}, DATABASE_HOOK_TIMEOUT_MS);
const userWithBalance = (amount: string) => createUserWithBalance(test.db, amount);

function request(claims: JwtClaims, amount: string, method: string, details: string) {
  return asRole(test.db, claims, async (tx) => {
    const { rows } = await tx.query<{ id: string; status: string; amount: string }>(
      'select * from public.request_withdrawal(amount => $1::numeric, method => $2, details => $3)',
      [amount, method, details],
    );
    return rows[0]!;
  });
}

function processAs(claims: JwtClaims, id: string, status: string) {
  return asRole(test.db, claims, (tx) =>
    tx.query('select * from public.process_withdrawal($1, $2)', [id, status]),
  );
}

async function money(user: TestUser) {
  const { rows } = await test.db.query<{ balance: string; ledger: string }>(
    'select balance, (select sum(amount) from earnings_ledger where user_id = $1) as ledger from profiles where id = $1',
    [user.id],
  );
  return rows[0]!;
}

const BANK = JSON.stringify({
  accountName: 'Ada',
  iban: 'DE89370400440532013000',
  swift: 'COBADEFFXXX',
});

describe(`withdrawals (${testDatabaseKind()})`, () => {
  it("validates with the spec's messages", async () => {
    const poor = await userWithBalance('4.99');
    await expect(request(poor.claims, '4.99', 'paypal', 'a@b.co')).rejects.toThrow(
      'Minimum withdrawal amount is 5 EUR.',
    );
    const rich = await userWithBalance('20');
    await expect(request(rich.claims, '10', 'paypal', 'not-an-email')).rejects.toThrow(
      'Please provide your PayPal email.',
    );
    await expect(request(rich.claims, '10', 'bank', '{"iban":"x"}')).rejects.toThrow(
      'Please fill in all bank details.',
    );
    await expect(request(rich.claims, '25', 'bank', BANK)).rejects.toThrow('Insufficient balance.');
  });

  it('debits the balance through the ledger and never double-spends', async () => {
    const user = await userWithBalance('12.0000');
    const results = await Promise.allSettled([
      request(user.claims, '10', 'paypal', 'me@example.test'),
      request(user.claims, '10', 'bank', BANK),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(await money(user)).toEqual({ balance: '2.0000', ledger: '2.0000' });
  });

  it('is processed by an admin only; a rejection returns the amount', async () => {
    const user = await userWithBalance('30');
    const first = await request(user.claims, '10', 'paypal', 'me@example.test');
    const second = await request(user.claims, '15', 'bank', BANK);
    expect(first.status).toBe('pending');
    await expect(processAs(user.claims, first.id, 'completed')).rejects.toMatchObject({
      code: '42501',
    });
    await processAs(admin.claims, first.id, 'completed');
    await expect(processAs(admin.claims, first.id, 'rejected')).rejects.toThrow(
      'already been processed',
    );
    await processAs(admin.claims, second.id, 'rejected');
    expect(await money(user)).toEqual({ balance: '20.0000', ledger: '20.0000' });
    const { rows } = await test.db.query(
      'select status from withdrawals where user_id = $1 order by amount',
      [user.id],
    );
    expect(rows).toEqual([{ status: 'completed' }, { status: 'rejected' }]);
  });
});
