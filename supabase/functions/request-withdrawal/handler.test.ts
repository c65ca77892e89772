import type { FunctionsHttpError } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_HOOK_TIMEOUT_MS } from '../../../server/db/test-database';
import type { TestUser } from '../../../server/db/test-factories';
import {
  startFunctionsHarness,
  type FunctionsHarness,
} from '../../../server/functions/test-support';

let h: FunctionsHarness;
beforeAll(async () => {
  h = await startFunctionsHarness();
}, DATABASE_HOOK_TIMEOUT_MS);
afterAll(async () => h?.close(), DATABASE_HOOK_TIMEOUT_MS);

async function artistWithBalance(amount: string): Promise<TestUser> {
  const user = await h.newUser();
  await h.db.query(`select public.post_ledger_entry($1, $2::numeric, 'play')`, [user.id, amount]);
  return user;
}
const balanceOf = async (user: TestUser) =>
  (
    await h.db.query<{ balance: string }>('select balance from public.profiles where id = $1', [
      user.id,
    ])
  ).rows[0]?.balance;

/** The app's call (spec §7): bearer token of the session, JSON body. */
async function request(user: TestUser | null, body: unknown) {
  const { data, error } = await h.client(user ?? undefined).functions.invoke('request-withdrawal', {
    body: body as Record<string, unknown>,
  });
  if (!error) return { status: 200, body: data as Record<string, unknown> };
  const context = (error as FunctionsHttpError).context as Response;
  return { status: context.status, body: (await context.json()) as Record<string, unknown> };
}

describe('request-withdrawal', () => {
  it('withdraws for the caller and debits the balance', async () => {
    const artist = await artistWithBalance('12.50');
    const res = await request(artist, { amount: 5, method: 'paypal', details: 'me@example.com' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      withdrawal: { user_id: artist.id, method: 'paypal', status: 'pending' },
    });
    expect(Number((res.body.withdrawal as { amount: string }).amount)).toBe(5);
    expect(await balanceOf(artist)).toBe('7.5000');
  });

  it.each([
    [
      { amount: 4.99, method: 'paypal', details: 'me@example.com' },
      'Minimum withdrawal amount is 5 EUR.',
    ],
    [
      { amount: 'lots', method: 'paypal', details: 'me@example.com' },
      'Minimum withdrawal amount is 5 EUR.',
    ],
    [{ amount: 5, method: 'paypal', details: 'not-an-email' }, 'Please provide your PayPal email.'],
    [
      { amount: 5, method: 'bank', details: '{"accountName":"A","iban":""}' },
      'Please fill in all bank details.',
    ],
    [{ amount: 5, method: 'cash', details: 'x' }, 'Choose PayPal or bank transfer.'],
    [
      {
        amount: 5,
        method: 'bank',
        details: '{"accountName":"A","iban":"DE89370400440532013001","swift":"COBADEFFXXX"}',
      },
      'Please enter a valid IBAN.',
    ],
    [
      {
        amount: 5,
        method: 'bank',
        // Checksum right, length wrong for Germany: ibantools knows each country's length.
        details: '{"accountName":"A","iban":"DE863704004405320130","swift":"COBADEFFXXX"}',
      },
      'Please enter a valid IBAN.',
    ],
    [
      {
        amount: 5,
        method: 'bank',
        details: '{"accountName":"A","iban":"DE89370400440532013000","swift":"COBA-DE"}',
      },
      'Please enter a valid SWIFT/BIC code.',
    ],
  ])('refuses %j with the spec message', async (body, message) => {
    const artist = await artistWithBalance('10');
    expect(await request(artist, body)).toEqual({ status: 400, body: { error: message } });
    expect(await balanceOf(artist)).toBe('10.0000');
  });

  it('accepts bank details as the JSON string the app sends', async () => {
    const artist = await artistWithBalance('6');
    const details = JSON.stringify({
      accountName: 'A. Artist',
      iban: 'DE89370400440532013000',
      swift: 'COBADEFFXXX',
    });
    const res = await request(artist, { amount: '6.00', method: 'bank', details });
    expect(res).toMatchObject({ status: 200, body: { success: true } });
    expect(await balanceOf(artist)).toBe('0.0000');
  });

  it('needs a signed-in caller', async () => {
    const res = await request(null, { amount: 5, method: 'paypal', details: 'me@example.com' });
    expect(res).toEqual({ status: 401, body: { error: 'Not authenticated' } });
  });

  it('never spends the same balance twice, even concurrently', async () => {
    const artist = await artistWithBalance('7');
    const body = { amount: 5, method: 'paypal', details: 'me@example.com' };
    const results = await Promise.all([
      request(artist, body),
      request(artist, body),
      request(artist, body),
    ]);
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 200)) {
      expect(r.status).toBe(400);
      expect(r.body.error).toMatch(/Minimum withdrawal amount is 5 EUR\.|Insufficient balance\./);
    }
    expect(await balanceOf(artist)).toBe('2.0000');
  });
});
