/**
 * Search folding (docs/search.md, "Ranked search"): lower case, diacritics removed, so
 * "Beyoncé", "BEYONCE" and "beyonce" are one word. The server folds the same way with
 * PostgreSQL's `unaccent` (migration 20261130070000). Letters that Unicode does not decompose
 * (ø, ł, æ, ß, …) are mapped by hand, as `unaccent`'s rules do.
 */
const EXTRA: Record<string, string> = {
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  æ: 'ae',
  œ: 'oe',
  ß: 'ss',
  ı: 'i',
};
const EXTRA_RE = /[øłđðþæœßı]/g;
const MARKS_RE = /\p{M}+/gu;

/** One word or a whole text, folded: NFKD, marks dropped, lower case, the extra letters mapped. */
export function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(MARKS_RE, '')
    .toLowerCase()
    .replace(EXTRA_RE, (c) => EXTRA[c] ?? c);
}

const WORD_RE = /[\p{L}\p{N}]+/gu;

/** The words of a text (runs of letters and digits), as written. */
export function words(text: string): string[] {
  return text.match(WORD_RE) ?? [];
}

export interface HighlightPart {
  text: string;
  hit: boolean;
}

/**
 * `text` cut into parts, `hit` for every word whose folded form is one of `terms` (already
 * folded) or starts with one of `prefixes` (the part typed so far is marked). For <mark>.
 */
export function highlightParts(
  text: string,
  terms: ReadonlySet<string>,
  prefixes: readonly string[] = [],
): HighlightPart[] {
  const parts: HighlightPart[] = [];
  let last = 0;
  for (const m of text.matchAll(WORD_RE)) {
    const word = m[0];
    const start = m.index;
    const folded = fold(word);
    let end = -1;
    if (terms.has(folded)) end = start + word.length;
    else {
      const p = prefixes.find((x) => x.length > 0 && folded.startsWith(x));
      // A folded prefix of n characters covers the first n letters when folding kept lengths.
      if (p) end = folded.length === word.length ? start + p.length : start + word.length;
    }
    if (end < 0) continue;
    if (start > last) parts.push({ text: text.slice(last, start), hit: false });
    parts.push({ text: text.slice(start, end), hit: true });
    last = end;
  }
  if (last < text.length) parts.push({ text: text.slice(last), hit: false });
  return parts;
}
