import { describe, expect, it } from 'vitest';
import { isAllowedType, mpegFrameLength, normaliseMimeType, sniffContentType } from './sniff';
import { HTML, SVG, jpegBytes, mp3Bytes, pngBytes, wavBytes } from './test-files';

const bytes = (...parts: (string | number[])[]) =>
  new Uint8Array(
    parts.flatMap((p) => (typeof p === 'string' ? [...p].map((c) => c.charCodeAt(0)) : p)),
  );

describe('sniffContentType', () => {
  it('recognises the seven stored formats by their bytes', () => {
    expect(sniffContentType(mp3Bytes(2, true))).toBe('audio/mpeg');
    expect(sniffContentType(mp3Bytes(3))).toBe('audio/mpeg');
    expect(sniffContentType(wavBytes())).toBe('audio/wav');
    expect(sniffContentType(bytes('OggS', [0, 2, 0, 0]))).toBe('audio/ogg');
    expect(sniffContentType(bytes('fLaC', [0, 0, 0, 34]))).toBe('audio/flac');
    expect(sniffContentType(pngBytes())).toBe('image/png');
    expect(sniffContentType(jpegBytes())).toBe('image/jpeg');
    expect(sniffContentType(bytes('RIFF', [1, 0, 0, 0], 'WEBPVP8 '))).toBe('image/webp');
  });

  it('refuses markup, scripts and near misses', () => {
    for (const b of [
      HTML,
      SVG,
      bytes('<?xml version="1.0"?><svg/>'),
      bytes('#!/bin/sh\nrm -rf /'),
      bytes('PK', [3, 4]),
      bytes('ID3', [9, 0, 0, 0, 0, 0, 0]), // bad ID3 version
      bytes('ID3', [3, 0, 0, 0x80, 0, 0, 0]), // size byte not syncsafe
      bytes([0xff, 0xf1, 0x50, 0x80]), // AAC ADTS (layer 0)
      bytes([0xff, 0xfb, 0xf0, 0x64]), // bad bitrate index
      bytes('RIFF', [1, 0, 0, 0], 'AVI '),
      new Uint8Array(0),
    ]) {
      expect(sniffContentType(b)).toBeNull();
    }
  });

  it('needs a second MPEG frame header where the first frame ends', () => {
    const one = mp3Bytes(2);
    expect(mpegFrameLength(one, 0)).toBe(417);
    one[417] = 0x3c; // '<' where the second frame should start
    expect(sniffContentType(one)).toBeNull();
  });
});

describe('bucket types', () => {
  it('normalises aliases and honours wildcards', () => {
    expect(normaliseMimeType('audio/mp3')).toBe('audio/mpeg');
    expect(normaliseMimeType('Audio/X-WAV; codecs=1')).toBe('audio/wav');
    expect(isAllowedType('audio/wav', ['audio/x-wav'])).toBe(true);
    expect(isAllowedType('audio/flac', ['audio/*'])).toBe(true);
    expect(isAllowedType('image/png', ['audio/*'])).toBe(false);
    expect(isAllowedType('image/png', null)).toBe(true);
  });
});
