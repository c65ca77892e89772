import { describe, expect, it } from 'vitest';
import { linkTokenFromHash } from './link-token';

describe('linkTokenFromHash', () => {
  it('reads a 64-hex token from #t= only', () => {
    const token = '0f'.repeat(32);
    expect(linkTokenFromHash(`#t=${token}`)).toBe(token);
    expect(linkTokenFromHash(`#t=${token}x`)).toBeUndefined();
    expect(linkTokenFromHash(`#t=${token.toUpperCase()}`)).toBeUndefined();
    expect(linkTokenFromHash('')).toBeUndefined();
    expect(linkTokenFromHash(`#x=${token}`)).toBeUndefined();
  });
});
