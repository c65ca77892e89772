// @vitest-environment node
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { pngCover, sineMp3, tagMp3 } from '@/test/audio-fixtures';
import { readAudioTags } from './read-tags';

const file = (bytes: Uint8Array, name: string, type: string) =>
  new File([bytes as Uint8Array<ArrayBuffer>], name, { type });

describe('readAudioTags (music-metadata parseBlob)', () => {
  it('reads title, artist, album, genre, the embedded cover and the duration of a tagged MP3', async () => {
    const cover = pngCover(32);
    const mp3 = tagMp3(sineMp3(3), {
      title: 'Night Drive',
      artist: 'Neon Harbor',
      album: 'Coastlines',
      genre: 'Synthwave',
      cover,
    });
    const tags = await readAudioTags(file(mp3, 'x.mp3', 'audio/mpeg'));
    expect(tags).toMatchObject({
      title: 'Night Drive',
      artist: 'Neon Harbor',
      album: 'Coastlines',
      genre: 'Synthwave',
      container: 'MPEG',
    });
    expect(tags.duration).toBeGreaterThan(2.9);
    expect(tags.duration).toBeLessThan(3.2);
    expect(tags.cover?.type).toBe('image/png');
    expect(new Uint8Array(await tags.cover!.arrayBuffer())).toEqual(cover);
  });

  it('reads the Vorbis comments and the duration of an Ogg Opus file', async () => {
    // Made with opus-tools (opusenc --title --artist): server/processing/fixtures, docs/upload.md.
    // (vitest runs from the repository's root; jsdom's import.meta.url is not a file URL)
    const opus = new Uint8Array(readFileSync('server/processing/fixtures/chord-3s.opus'));
    const tags = await readAudioTags(file(opus, 'chord.opus', 'audio/ogg'));
    expect(tags).toMatchObject({ title: 'Opus Chord', artist: 'Soundloft Tests', cover: null });
    expect(tags.duration).toBeGreaterThan(2.9);
    expect(tags.duration).toBeLessThan(3.1);
  });

  it('an untagged MP3 has no tags but a duration', async () => {
    const tags = await readAudioTags(file(sineMp3(1), 'x.mp3', 'audio/mpeg'));
    expect(tags).toMatchObject({
      title: null,
      artist: null,
      album: null,
      genre: null,
      cover: null,
    });
    expect(tags.duration).toBeGreaterThan(0.9);
  });

  it('throws on bytes that are not audio (a renamed file)', async () => {
    const text = new TextEncoder().encode('MZ this is not audio at all'.repeat(100));
    await expect(readAudioTags(file(text, 'song.mp3', 'audio/mpeg'))).rejects.toThrow();
  });
});
