// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { fold, highlightParts, words } from './fold';

describe('fold', () => {
  it('folds case and diacritics, and the letters Unicode does not decompose', () => {
    expect(fold('Beyoncé')).toBe('beyonce');
    expect(fold('BEYONCE')).toBe('beyonce');
    expect(fold('Ærøskøbing Straße Łódź')).toBe('aeroskobing strasse lodz');
  });
  it('splits words on anything but letters and digits', () => {
    expect(words('Moss & Static — 1999!')).toEqual(['Moss', 'Static', '1999']);
  });
});

describe('highlightParts', () => {
  it('marks matched words and typed prefixes, keeping the text', () => {
    const parts = highlightParts('Harbor Lights & Café', new Set(['harbor', 'cafe']), ['lig']);
    expect(parts).toEqual([
      { text: 'Harbor', hit: true },
      { text: ' ', hit: false },
      { text: 'Lig', hit: true },
      { text: 'hts & ', hit: false },
      { text: 'Café', hit: true },
    ]);
    expect(parts.map((p) => p.text).join('')).toBe('Harbor Lights & Café');
  });
  it('marks nothing when nothing matched', () => {
    expect(highlightParts('Night Ferry', new Set())).toEqual([{ text: 'Night Ferry', hit: false }]);
  });
});
