import { describe, expect, it } from 'vitest';
import { NEW_ACCOUNT_MS, welcomeFor } from './welcome';

describe('welcomeFor', () => {
  const now = Date.parse('2026-11-29T12:00:00Z');
  it('greets a brand-new account "Welcome", not "Welcome back"', () => {
    expect(welcomeFor('2026-11-29T11:59:30Z', now)).toBe('Welcome');
    expect(welcomeFor(new Date(now - NEW_ACCOUNT_MS + 1000).toISOString(), now)).toBe('Welcome');
  });
  it('welcomes back an account older than a day', () => {
    expect(welcomeFor(new Date(now - NEW_ACCOUNT_MS).toISOString(), now)).toBe('Welcome back');
    expect(welcomeFor('2025-01-01T00:00:00Z', now)).toBe('Welcome back');
  });
  it('says plain "Welcome" when the account’s age is unknown', () => {
    expect(welcomeFor(undefined, now)).toBe('Welcome');
    expect(welcomeFor('garbage', now)).toBe('Welcome');
  });
});
