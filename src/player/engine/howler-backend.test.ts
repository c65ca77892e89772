import { describe, expect, it } from 'vitest';
import { formatFor } from './howler-backend';

describe('formatFor', () => {
  it.each([
    ['https://cdn.test/a.mp3', undefined],
    ['https://cdn.test/a.FLAC?token=1', undefined],
    ['/storage/v1/object/public/audio/u/1_song.wav#t=3', undefined],
    ['https://cdn.test/stream/123', ['mp3']],
    ['https://cdn.test/a.mp3.txt', ['mp3']],
  ])('%s → %j', (src, expected) => {
    expect(formatFor(src)).toEqual(expected);
  });
});
