// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { centsOf, centsToDecimal, formatEur } from './euros';

describe('euros', () => {
  it('takes whole cents from the decimal text, rounding down', () => {
    expect(centsOf('12.3456')).toBe(1234);
    expect(centsOf(0.29)).toBe(29);
    expect(centsOf(4.9999)).toBe(499);
    expect(centsOf('5')).toBe(500);
    expect(centsOf('-5.5')).toBe(-550);
    expect(centsOf(null)).toBe(0);
    expect(centsOf('nonsense')).toBe(0);
  });
  it('formats with 2 decimals in EUR', () => {
    expect(centsToDecimal(1234)).toBe('12.34');
    expect(centsToDecimal(5)).toBe('0.05');
    expect(formatEur('1234.5')).toBe('€1,234.50');
    expect(formatEur(0.0021)).toBe('€0.00');
  });
});
