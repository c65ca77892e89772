/**
 * `request-withdrawal`: POST {amount, method: 'paypal' | 'bank', details} with the caller's JWT.
 * Calls `public.request_withdrawal` AS THE CALLER (it locks the balance: no double spend) and
 * answers {success: true, withdrawal} or {error: '<the spec's message>'} (400; 401 signed out).
 * Bank details are checked here with ibantools (country length, IBAN checksum, BIC shape), the
 * same library the form uses; the database checks the checksum again for direct RPC callers.
 */
import { electronicFormatIBAN, isValidBIC, isValidIBAN } from 'ibantools';
import { callerId, errorResponse, json, readJsonObject, withCors } from '../_shared/http.ts';

const MINIMUM_MESSAGE = 'Minimum withdrawal amount is 5 EUR.';
const BANK_MESSAGE = 'Please fill in all bank details.';

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
  const body = await readJsonObject(req);
  const amount = amountText(body.amount);
  if (amount === null) return errorResponse(MINIMUM_MESSAGE);
  const method = body.method;
  if (method !== 'paypal' && method !== 'bank') {
    return errorResponse('Choose PayPal or bank transfer.');
  }
  // Bank details are a JSON string {accountName, iban, swift} (spec §7); accept the object too.
  const details =
    typeof body.details === 'string'
      ? body.details
      : body.details && typeof body.details === 'object'
        ? JSON.stringify(body.details)
        : '';
  if (method === 'bank') {
    const problem = bankDetailsError(details);
    if (problem) return errorResponse(problem);
  }
  const { data, error } = await ctx
    .userClient(req)
    .rpc('request_withdrawal', { amount, method, details });
  if (error) {
    const status = error.code === '42501' ? 401 : error.code?.startsWith('P0') ? 400 : 500;
    if (status === 500) console.error('[request-withdrawal]', error);
    return errorResponse(status === 500 ? 'Failed to request withdrawal' : error.message, status);
  }
  return json({ success: true, withdrawal: data });
});
