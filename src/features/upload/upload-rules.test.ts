// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  ARTIST_REQUIRED,
  AUDIO_TOO_LARGE,
  audioFileError,
  audioMimeOf,
  canSubmit,
  checkDetails,
  cleanDetails,
  COVER_TOO_LARGE,
  coverFileError,
  NOT_AN_IMAGE,
  NOT_AUDIO,
  TITLE_REQUIRED,
  titleFromFileName,
  uploadLimits,
} from './upload-rules';

const MB = 1024 * 1024;
const details = { title: 'Song', artist: 'Ann', album: '', genre: '' };

describe('audio files (spec 5)', () => {
  it('accepts mpeg, wav, ogg and flac by their declared type or, without one, the extension', () => {
    expect(audioMimeOf({ name: 'a.mp3', type: 'audio/mpeg' })).toBe('audio/mpeg');
    expect(audioMimeOf({ name: 'a.mp3', type: 'audio/mp3' })).toBe('audio/mpeg');
    expect(audioMimeOf({ name: 'a.wav', type: 'audio/x-wav' })).toBe('audio/wav');
    expect(audioMimeOf({ name: 'a.ogg', type: 'audio/ogg' })).toBe('audio/ogg');
    expect(audioMimeOf({ name: 'a.opus', type: 'audio/opus' })).toBe('audio/ogg');
    expect(audioMimeOf({ name: 'a.opus', type: '' })).toBe('audio/ogg');
    expect(audioMimeOf({ name: 'a.flac', type: 'audio/x-flac' })).toBe('audio/flac');
    expect(audioMimeOf({ name: 'A.FLAC', type: '' })).toBe('audio/flac');
    expect(audioMimeOf({ name: 'a.m4a', type: 'audio/mp4' })).toBeNull();
    expect(audioMimeOf({ name: 'a.exe', type: '' })).toBeNull();
  });

  it("says 'Please select an audio file.' for anything else", () => {
    expect(audioFileError({ name: 'a.png', type: 'image/png', size: 10 })).toBe(NOT_AUDIO);
    expect(audioFileError({ name: 'a.txt', type: 'text/plain', size: 10 })).toBe(NOT_AUDIO);
  });

  it('must be less than 50MB', () => {
    expect(audioFileError({ name: 'a.mp3', type: 'audio/mpeg', size: 50 * MB - 1 })).toBeNull();
    expect(audioFileError({ name: 'a.mp3', type: 'audio/mpeg', size: 50 * MB })).toBe(
      AUDIO_TOO_LARGE,
    );
  });
});

describe('cover images (spec 5)', () => {
  it('accepts JPEG, PNG and WebP under 5MB', () => {
    expect(coverFileError({ type: 'image/jpeg', size: 5 * MB - 1 })).toBeNull();
    expect(coverFileError({ type: 'image/webp', size: 100 })).toBeNull();
    expect(coverFileError({ type: 'image/png', size: 5 * MB })).toBe(COVER_TOO_LARGE);
    expect(coverFileError({ type: 'image/svg+xml', size: 100 })).toBe(NOT_AN_IMAGE);
    expect(coverFileError({ type: 'audio/mpeg', size: 100 })).toBe(NOT_AN_IMAGE);
  });
});

describe('track details', () => {
  it('prefills the title from the file name without its extension', () => {
    expect(titleFromFileName('My Song.final.mp3')).toBe('My Song.final');
    expect(titleFromFileName('C:\\music\\Intro.wav')).toBe('Intro');
    expect(titleFromFileName('.hidden')).toBe('.hidden');
  });

  it('needs a title and an artist, in the spec words', () => {
    expect(checkDetails(details)).toEqual({});
    expect(checkDetails({ ...details, title: '  ' })).toEqual({ title: TITLE_REQUIRED });
    expect(checkDetails({ ...details, artist: '' })).toEqual({ artist: ARTIST_REQUIRED });
  });

  it('trims, and a blank album or genre is none', () => {
    expect(cleanDetails({ title: ' A ', artist: ' B', album: '  ', genre: ' Pop ' })).toEqual({
      title: 'A',
      artist: 'B',
      album: null,
      genre: 'Pop',
    });
  });
});

describe('upload limits (DECISIONS: 50 / 100 / unlimited)', () => {
  it('counts what is left this month', () => {
    expect(uploadLimits('free', 3)).toMatchObject({ limit: 50, used: 3, remaining: 47 });
    expect(uploadLimits('basic', 100)).toMatchObject({ limit: 100, remaining: 0, atLimit: true });
    expect(uploadLimits('premium', 500)).toMatchObject({
      limit: null,
      remaining: null,
      atLimit: false,
    });
    expect(uploadLimits('unknown', 0).plan.id).toBe('free');
  });
});

describe('submit (spec 5)', () => {
  const ok = { hasAudio: true, details, busy: false, atLimit: false };
  it('is enabled with a file, a title and an artist', () => {
    expect(canSubmit(ok)).toBe(true);
  });
  it('is disabled without a file, a title or an artist, while uploading, and at the limit', () => {
    expect(canSubmit({ ...ok, hasAudio: false })).toBe(false);
    expect(canSubmit({ ...ok, details: { ...details, title: ' ' } })).toBe(false);
    expect(canSubmit({ ...ok, details: { ...details, artist: '' } })).toBe(false);
    expect(canSubmit({ ...ok, busy: true })).toBe(false);
    expect(canSubmit({ ...ok, atLimit: true })).toBe(false);
  });
});
