// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { LEGAL_DOCUMENTS } from './documents';

describe('legal documents', () => {
  it('has the seven public legal pages of the spec', () => {
    expect(LEGAL_DOCUMENTS.map((d) => d.slug)).toEqual([
      'terms-of-service',
      'privacy-policy',
      'copyright-policy',
      'community',
      'cookie-policy',
      'music-licensing',
      'accessibility-statement',
    ]);
  });

  it.each(LEGAL_DOCUMENTS.map((d) => [d.slug, d] as const))(
    '%s is complete and anchorable',
    (_slug, doc) => {
      expect(doc.sections.length).toBeGreaterThanOrEqual(5);
      const ids = doc.sections.map((s) => s.id);
      expect(new Set(ids).size).toBe(ids.length);
      for (const id of ids) expect(id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(doc.contact.email).toMatch(/^[^@\s]+@[^@\s]+\.[a-z]+$/);
      const strings: string[] = [];
      JSON.stringify(doc, (_key, value: unknown) => {
        if (typeof value === 'string') strings.push(value);
        return value;
      });
      for (const text of strings) expect(text).not.toMatch(/lorem|TODO|\[|\]|undefined|NaN|\$\{/i);
    },
  );

  it('states the legal constants of the spec', () => {
    const all = JSON.stringify(LEGAL_DOCUMENTS);
    for (const fact of [
      '24-48 hours',
      '5 business days',
      '10 business days',
      '7-30 days',
      '30 days',
      '2 years',
      '1 year',
      'WCAG 2.1 AA',
    ]) {
      expect(all).toContain(fact);
    }
  });
});
