import { describe, expect, it } from 'vitest';
import { holidayCoverageWarning } from './jobs';

describe('holidayCoverageWarning', () => {
  it('is quiet while the holidays cover more than 60 days ahead', () => {
    expect(holidayCoverageWarning(2028, new Date('2028-11-01T00:00:00Z'))).toBeNull();
    expect(holidayCoverageWarning(2028, new Date('2026-11-29T12:00:00Z'))).toBeNull();
  });

  it('warns operators within 60 days of the end of the last covered year, and after it', () => {
    expect(holidayCoverageWarning(2028, new Date('2028-11-02T00:00:01Z'))).toMatch(
      /covers up to 2028: deadlines from 2029-01-01 count weekends only.*add the US federal holidays of 2029/,
    );
    expect(holidayCoverageWarning(2028, new Date('2029-03-01T00:00:00Z'))).toMatch(/2029/);
    expect(holidayCoverageWarning(null, new Date('2026-11-29T00:00:00Z'))).toMatch(/is empty/);
  });
});
