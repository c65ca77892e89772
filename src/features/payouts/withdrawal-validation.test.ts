// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  checkWithdrawal,
  WITHDRAWAL_MESSAGES as M,
  type WithdrawalInput,
} from './withdrawal-validation';

const base: WithdrawalInput = {
  amount: '10',
  method: 'paypal',
  paypalEmail: 'artist@example.com',
  accountName: '',
  iban: '',
  swift: '',
};
const bank = {
  ...base,
  method: 'bank' as const,
  accountName: 'Ada',
  iban: 'DE89 3704 0044 0532 0130 00',
  swift: 'cobadeffxxx',
};

describe('checkWithdrawal', () => {
  it('sends PayPal withdrawals as the e-mail and the amount in cents', () => {
    expect(checkWithdrawal({ ...base, amount: '7,5' }, 1000)).toEqual({
      ok: true,
      amount: '7.50',
      method: 'paypal',
      details: 'artist@example.com',
    });
  });
  it.each([
    [{ amount: '4.99' }, 5000, M.minimum],
    [{ amount: 'abc' }, 5000, M.minimum],
    [{ amount: '5' }, 499, M.minimum],
    [{ amount: '50.01' }, 5000, M.insufficient],
    [{ amount: '5.001' }, 5000, M.cents],
    [{ paypalEmail: 'nope' }, 5000, M.paypal],
    [{ ...bank, accountName: ' ' }, 5000, M.bank],
    [{ ...bank, iban: 'DE89 3704 0044 0532 0130 01' }, 5000, M.iban],
    [{ ...bank, iban: 'DE86 3704 0044 0532 0130' }, 5000, M.iban],
    [{ ...bank, swift: 'COBA' }, 5000, M.swift],
  ])('refuses %j at balance %i cents with the message', (change, balance, message) => {
    expect(checkWithdrawal({ ...base, ...change }, balance)).toMatchObject({ ok: false, message });
  });
  it('sends bank details as the JSON string the function reads, normalised', () => {
    const r = checkWithdrawal(bank, 5000);
    expect(r).toMatchObject({ ok: true, method: 'bank' });
    expect(JSON.parse((r as { details: string }).details)).toEqual({
      accountName: 'Ada',
      iban: 'DE89370400440532013000',
      swift: 'COBADEFFXXX',
    });
  });
});
