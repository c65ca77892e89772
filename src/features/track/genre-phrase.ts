import indefinite from 'indefinite';

/**
 * How the track page names a track's kind in running text: "an electronic track", "a lo-fi
 * track", "an EDM track", or "a track" without a genre. The genre reads lower-case as a common
 * noun, except words written all in capitals (EDM, UK), which keep them; the article follows the
 * sound (the `indefinite` package: vowels, acronyms spelled out, "an hour", "a unicorn").
 */
export function genrePhrase(genre: string | null | undefined): string {
  const words = genre?.trim().split(/\s+/).filter(Boolean) ?? [];
  if (words.length === 0) return 'a track';
  const shown = words
    .map((word) =>
      /[A-Z]{2}/.test(word) && word === word.toUpperCase() ? word : word.toLowerCase(),
    )
    .join(' ');
  return `${indefinite(shown)} track`;
}
