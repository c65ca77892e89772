// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { genrePhrase } from './genre-phrase';

describe('genrePhrase (the track page\'s "… is a/an <genre> track by …")', () => {
  it('takes "an" before a vowel sound (issue 34: "is a electronic track")', () => {
    expect(genrePhrase('Electronic')).toBe('an electronic track');
    expect(genrePhrase('Ambient')).toBe('an ambient track');
    expect(genrePhrase('Indie Rock')).toBe('an indie rock track');
  });

  it('takes "a" before a consonant sound', () => {
    expect(genrePhrase('Synthwave')).toBe('a synthwave track');
    expect(genrePhrase('Lo-fi')).toBe('a lo-fi track');
    expect(genrePhrase('Drum & Bass')).toBe('a drum & bass track');
    expect(genrePhrase('Euro House')).toBe('a euro house track');
  });

  it('keeps acronyms and reads them as spelled out', () => {
    expect(genrePhrase('EDM')).toBe('an EDM track');
    expect(genrePhrase('UK Garage')).toBe('a UK garage track');
  });

  it('without a genre: "a track"', () => {
    expect(genrePhrase(null)).toBe('a track');
    expect(genrePhrase(undefined)).toBe('a track');
    expect(genrePhrase('   ')).toBe('a track');
  });
});
