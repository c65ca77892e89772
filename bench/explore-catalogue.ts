/**
 * A deterministic large catalogue for the search bench: 100,000 tracks whose titles, artists,
 * albums and genres look like a real store's (common English words, invented names and words,
 * numbers, a long tail of rare words), so the vocabulary grows with the catalogue as a real one
 * does (about 40,000 distinct words at 100,000 tracks).
 */
import { random } from '../server/seed/prng';

const COMMON = (
  'love night light neon heart dream fire rain blue summer city road home time sky star gold ' +
  'wild dark moon sun ocean river shadow ghost echo silver golden broken lost young run dance ' +
  'falling rising midnight morning sunset forever never again alone together north south east ' +
  'west storm thunder electric paradise memory memories journey highway velvet crystal glass ' +
  'paper stone iron steel sugar honey whiskey coffee cherry lemon violet scarlet amber neon ' +
  '静か 夜 nuit cœur corazón sueño été'
).split(/\s+/);
const GENRES = [
  'Pop',
  'Rock',
  'Hip Hop',
  'Electronic',
  'Synthwave',
  'Jazz',
  'Folk',
  'Classical',
  'Ambient',
  'R&B',
  'Soul',
  'Metal',
  'Indie',
  'Lo-fi',
  'House',
  'Techno',
  'Drum & Bass',
  'Reggae',
  'Country',
  'Blues',
  'Punk',
  'Latin',
  'K-Pop',
  'Afrobeats',
];
const SYLLABLES =
  'ka ri mo na lu te sa vi ro el an dre ma ki zo pa ne li or ta ve ra so mi da qu ix ya no be'.split(
    ' ',
  );

export interface BenchTrack {
  id: string;
  title: string;
  artist: string;
  album: string | null;
  genre: string | null;
  duration: number;
  createdAt: string;
}

export function makeCatalogue(count: number, seed = 2026): BenchTrack[] {
  const rnd = random(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)] as T;
  const invented = (parts: number) => Array.from({ length: parts }, () => pick(SYLLABLES)).join('');
  const word = () => {
    const r = rnd();
    if (r < 0.55) return pick(COMMON);
    if (r < 0.9) return invented(2 + Math.floor(rnd() * 2));
    return String(Math.floor(rnd() * 2000));
  };
  const capital = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);
  const phrase = (min: number, max: number) =>
    Array.from({ length: min + Math.floor(rnd() * (max - min + 1)) }, () => capital(word())).join(
      ' ',
    );
  const artists = Array.from({ length: Math.max(1, Math.floor(count / 25)) }, () =>
    rnd() < 0.5 ? `${capital(invented(2))} ${capital(invented(3))}` : `The ${phrase(1, 2)}`,
  );
  const albums = Array.from({ length: Math.max(1, Math.floor(count / 8)) }, () => phrase(1, 3));
  const start = Date.parse('2024-01-01T00:00:00Z');
  const tracks: BenchTrack[] = [];
  for (let i = 0; i < count; i++) {
    tracks.push({
      id: `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`,
      title: phrase(1, 4),
      artist: pick(artists),
      album: rnd() < 0.3 ? null : pick(albums),
      genre: rnd() < 0.05 ? null : pick(GENRES),
      duration: 90 + Math.floor(rnd() * 300),
      createdAt: new Date(start + i * 60_000).toISOString(),
    });
  }
  // Newest first, as the mirror lists them.
  return tracks.reverse();
}

/** A bench track as a row of public.tracks, uploaded by `uploadedBy` (the server benches' seeds). */
export function benchTrackRow(t: BenchTrack, uploadedBy: string | undefined) {
  return {
    id: t.id,
    title: t.title,
    artist: t.artist,
    album: t.album,
    genre: t.genre,
    duration: t.duration,
    audio_url: `https://example.test/${t.id}.mp3`,
    uploaded_by: uploadedBy,
    created_at: t.createdAt,
    updated_at: t.createdAt,
  };
}

/** What people type: each query keystroke by keystroke ('n', 'ne', 'neo', 'neon'). */
export const TYPED_QUERIES = [
  'neon',
  'midnight rain',
  'the ',
  'synthwave',
  'hip hop',
  'love',
  'kari',
  'drum & bass',
  '1999',
  'ELECTRIC',
  'corazón',
  'zzzq',
];

export function keystrokes(queries: readonly string[]): string[] {
  return queries.flatMap((q) => Array.from({ length: q.length }, (_, i) => q.slice(0, i + 1)));
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

export const ms = (v: number) => (v < 10 ? v.toFixed(2) : v.toFixed(1));
