import { expect, it } from 'vitest';
import { owesSecondFactor, sentWithOwedSession } from './second-factor';
import type { Session } from './types';

const token = (aal: string) => `x.${btoa(JSON.stringify({ aal })).replace(/=+$/, '')}.y`;
const session = (aal: string, status: 'verified' | 'unverified' | null) =>
  ({
    access_token: token(aal),
    user: { factors: status ? [{ id: 'f', status, factor_type: 'totp' }] : [] },
  }) as unknown as Session;

it('owes the second factor only with a verified factor below aal2', () => {
  expect(owesSecondFactor(session('aal1', 'verified'))).toBe(true);
  expect(owesSecondFactor(session('aal2', 'verified'))).toBe(false);
  expect(owesSecondFactor(session('aal1', 'unverified'))).toBe(false);
  expect(owesSecondFactor(session('aal1', null))).toBe(false);
});

it('sends only the recovery-code RPC with a session that owes the factor', () => {
  expect(sentWithOwedSession('https://a.test/rest/v1/rpc/use_mfa_recovery_code')).toBe(true);
  expect(sentWithOwedSession('https://a.test/rest/v1/tracks?select=id')).toBe(false);
  expect(sentWithOwedSession('https://a.test/rest/v1/rpc/use_mfa_recovery_code_x')).toBe(false);
  expect(sentWithOwedSession('https://a.test/functions/v1/delete-account')).toBe(false);
});
