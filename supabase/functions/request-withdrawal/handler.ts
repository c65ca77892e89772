/**
 * `request-withdrawal`: POST {amount, method: 'paypal' | 'bank', details} with the caller's JWT.
 * Calls `public.request_withdrawal` AS THE CALLER (it locks the balance: no double spend) and
 * answers {success: true, withdrawal} or {error: '<the spec's message>'} (400; 401 signed out).
 * Bank details are checked here with ibantools (country length, IBAN checksum, BIC shape), the
 * same library the form uses; the database checks the checksum again for direct RPC callers.
 */
import { electronicFormatIBAN, isValidBIC, isValidIBAN } from 'ibantools';
import { readBody, rpcErrorStatus, z } from '../_shared/body.ts';
import { callerId, errorResponse, json, withCors } from '../_shared/http.ts';
import { requireSecondFactor } from '../_shared/second-factor.ts';

const MINIMUM_MESSAGE = 'Minimum withdrawal amount is 5 EUR.';
const BANK_MESSAGE = 'Please fill in all bank details.';
const PAYPAL_MESSAGE = 'Please provide your PayPal email.';
/** The longest e-mail address (RFC 5321); the database refuses longer PayPal details too. */
export const MAX_EMAIL = 254;
/** The longest details text (the withdrawals.details check). */
const MAX_DETAILS = 2000;

const Body = z.strictObject({
  amount: z.union([z.number(), z.string().max(40)], { error: MINIMUM_MESSAGE }),
  method: z.enum(['paypal', 'bank'], { error: 'Choose PayPal or bank transfer.' }),
  // The PayPal e-mail, or bank details as a JSON string {accountName, iban, swift} (spec §7) or
  // that object itself.
  details: z.union(
    [z.string().max(MAX_DETAILS), z.record(z.string(), z.string().max(MAX_DETAILS))],
    { error: 'details: the PayPal email, or the bank details.' },
  ),
});

/** null when the bank details JSON is well formed, else the message to show. */
function bankDetailsError(details: string): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(details);
  } catch {
    return BANK_MESSAGE;
  }
  if (!parsed || typeof parsed !== 'object') return BANK_MESSAGE;
  const { accountName, iban, swift } = parsed as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
  if (!text(accountName) || !text(iban) || !text(swift)) return BANK_MESSAGE;
  if (!isValidIBAN(electronicFormatIBAN(text(iban)) ?? '')) return 'Please enter a valid IBAN.';
  if (!isValidBIC(text(swift).replace(/\s/g, '').toUpperCase())) {
    return 'Please enter a valid SWIFT/BIC code.';
  }
  return null;
}

/** A decimal amount as text (exact: never through a float), or null. */
function amountText(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(value)) return value.trim();
  return null;
}

export const handler = withCors(async (req, ctx) => {
  if (req.method !== 'POST') return errorResponse('Method not allowed', 405);
  if (!callerId(req)) return errorResponse('Not authenticated', 401);
  await requireSecondFactor(req, ctx);
  const body = await readBody(req, Body);
  const amount = amountText(body.amount);
  if (amount === null) return errorResponse(MINIMUM_MESSAGE);
  const method = body.method;
  const details = typeof body.details === 'string' ? body.details : JSON.stringify(body.details);
  if (
    method === 'paypal' &&
    (typeof body.details !== 'string' || details.trim().length > MAX_EMAIL)
  ) {
    return errorResponse(PAYPAL_MESSAGE);
  }
  if (method === 'bank') {
    const problem = bankDetailsError(details);
    if (problem) return errorResponse(problem);
  }
  const { data, error } = await ctx
    .userClient(req)
    .rpc('request_withdrawal', { amount, method, details });
  if (error) {
    const status = rpcErrorStatus(error.code);
    if (status === 500) console.error('[request-withdrawal]', error);
    return errorResponse(status === 500 ? 'Failed to request withdrawal' : error.message, status);
  }
  return json({ success: true, withdrawal: data });
});
