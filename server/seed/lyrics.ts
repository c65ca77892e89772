/**
 * Synced lyrics: each line starts on the bar where its melody phrase starts. Verse lines go to
 * the verse phrases in order (wrapping), each chorus restarts the chorus lines.
 */
import type { LyricsDef } from './content/lyrics';
import type { TrackAudio } from './media';
import { Prng } from './prng';

export interface LyricLine {
  id: string;
  text: string;
  timestamp: number;
  annotation?: string;
}

/** A UUID-shaped id from the generator (deterministic, unlike crypto.randomUUID). */
export function uuidFrom(rng: Prng): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(rng.next() * 16).toString(16));
  hex[12] = '4';
  hex[16] = ((parseInt(hex[16] as string, 16) & 3) | 8).toString(16);
  const s = hex.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}

export function syncLyrics(
  def: LyricsDef,
  phrases: TrackAudio['phrases'],
  seed: string,
): LyricLine[] {
  const rng = new Prng(`${seed}/lyrics`);
  const lines: LyricLine[] = [];
  let verse = 0;
  let chorus = 0;
  let previous: 'verse' | 'chorus' | null = null;
  for (const phrase of phrases) {
    if (phrase.kind === 'chorus' && previous !== 'chorus') chorus = 0;
    previous = phrase.kind;
    const text =
      phrase.kind === 'verse'
        ? def.verses[verse++ % def.verses.length]
        : def.chorus[chorus++ % def.chorus.length];
    if (!text) continue;
    const note = def.notes?.[text];
    const line: LyricLine = { id: uuidFrom(rng), text, timestamp: phrase.t };
    // An annotation belongs to the first time its line is sung.
    if (note && !lines.some((l) => l.text === text)) line.annotation = note;
    lines.push(line);
  }
  return lines.sort((a, b) => a.timestamp - b.timestamp);
}
