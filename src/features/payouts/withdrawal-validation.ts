import { electronicFormatIBAN, isValidBIC, isValidIBAN } from 'ibantools';
import { PAYOUT } from '@/lib/constants';
import { centsOf, centsToDecimal } from '@/lib/euros';

export type WithdrawalMethod = 'paypal' | 'bank';

export interface WithdrawalInput {
  amount: string;
  method: WithdrawalMethod;
  paypalEmail: string;
  accountName: string;
  iban: string;
  swift: string;
}

export const MINIMUM_CENTS = centsOf(PAYOUT.minimumWithdrawalEur);

/** The spec's messages (5, 8), plus the shape checks the server makes too (docs/payouts.md). */
export const WITHDRAWAL_MESSAGES = {
  minimum: 'Minimum withdrawal amount is 5 EUR.',
  insufficient: 'Insufficient balance.',
  cents: 'Amounts are in whole cents.',
  paypal: 'Please provide your PayPal email.',
  bank: 'Please fill in all bank details.',
  iban: 'Please enter a valid IBAN.',
  swift: 'Please enter a valid SWIFT/BIC code.',
  success: 'Withdrawal request submitted successfully! Your balance will update once processed.',
} as const;

export type WithdrawalCheck =
  | { ok: true; amount: string; method: WithdrawalMethod; details: string }
  | { ok: false; message: string; field: keyof WithdrawalInput };

/**
 * What the form sends (spec 7: amount, method, details = the PayPal e-mail or a JSON string of
 * accountName, iban, swift), or the first problem. `balanceCents`: what may be withdrawn.
 */
export function checkWithdrawal(input: WithdrawalInput, balanceCents: number): WithdrawalCheck {
  const amountText = input.amount.trim().replace(',', '.');
  if (!/^\d+(\.\d{1,2})?$/.test(amountText)) {
    return /^\d+\.\d{3,}$/.test(amountText)
      ? { ok: false, message: WITHDRAWAL_MESSAGES.cents, field: 'amount' }
      : { ok: false, message: WITHDRAWAL_MESSAGES.minimum, field: 'amount' };
  }
  const cents = centsOf(amountText);
  if (cents < MINIMUM_CENTS || balanceCents < MINIMUM_CENTS) {
    return { ok: false, message: WITHDRAWAL_MESSAGES.minimum, field: 'amount' };
  }
  if (cents > balanceCents) {
    return { ok: false, message: WITHDRAWAL_MESSAGES.insufficient, field: 'amount' };
  }
  const amount = centsToDecimal(cents);
  if (input.method === 'paypal') {
    const email = input.paypalEmail.trim();
    if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) {
      return { ok: false, message: WITHDRAWAL_MESSAGES.paypal, field: 'paypalEmail' };
    }
    return { ok: true, amount, method: 'paypal', details: email };
  }
  const accountName = input.accountName.trim();
  const iban = electronicFormatIBAN(input.iban.trim()) ?? '';
  const swift = input.swift.replace(/\s/g, '').toUpperCase();
  if (!accountName) return { ok: false, message: WITHDRAWAL_MESSAGES.bank, field: 'accountName' };
  if (!iban) return { ok: false, message: WITHDRAWAL_MESSAGES.bank, field: 'iban' };
  if (!swift) return { ok: false, message: WITHDRAWAL_MESSAGES.bank, field: 'swift' };
  if (!isValidIBAN(iban)) return { ok: false, message: WITHDRAWAL_MESSAGES.iban, field: 'iban' };
  if (!isValidBIC(swift)) return { ok: false, message: WITHDRAWAL_MESSAGES.swift, field: 'swift' };
  return {
    ok: true,
    amount,
    method: 'bank',
    details: JSON.stringify({ accountName, iban, swift }),
  };
}
