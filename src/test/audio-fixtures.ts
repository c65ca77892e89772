/**
 * Audio files made at test time (issue 14: fixtures are generated, never checked in): a sine
 * encoded to MP3 with the repository's encoder (lamejs, as the seed uses), tagged with ID3v2.3
 * by browser-id3-writer, with a PNG cover drawn by pngjs.
 */
import * as lamejsModule from '@breezystack/lamejs';
import { ID3Writer } from 'browser-id3-writer';
import { PNG } from 'pngjs';

type Lame = typeof lamejsModule;
const lame: Lame =
  (lamejsModule as Partial<Lame>).Mp3Encoder !== undefined
    ? lamejsModule
    : (lamejsModule as unknown as { default: Lame }).default;

/** A mono sine at 44.1 kHz, MP3 CBR. */
export function sineMp3(seconds: number, kbps = 128, frequency = 440): Uint8Array {
  const sampleRate = 44100;
  const encoder = new lame.Mp3Encoder(1, sampleRate, kbps);
  const block = 1152;
  const pcm = new Int16Array(block);
  const chunks: Uint8Array[] = [];
  const total = Math.round(seconds * sampleRate);
  for (let offset = 0; offset < total; offset += block) {
    const n = Math.min(block, total - offset);
    for (let i = 0; i < n; i++) {
      pcm[i] = Math.round(Math.sin((2 * Math.PI * frequency * (offset + i)) / sampleRate) * 12000);
    }
    const out = encoder.encodeBuffer(n === block ? pcm : pcm.subarray(0, n));
    chunks.push(Uint8Array.from(out));
  }
  chunks.push(Uint8Array.from(encoder.flush()));
  const bytes = new Uint8Array(chunks.reduce((sum, c) => sum + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.length;
  }
  return bytes;
}

/** A square PNG of one colour. */
export function pngCover(size = 64, rgb: [number, number, number] = [255, 100, 43]): Uint8Array {
  const png = new PNG({ width: size, height: size });
  for (let i = 0; i < size * size; i++) {
    png.data[i * 4] = rgb[0];
    png.data[i * 4 + 1] = rgb[1];
    png.data[i * 4 + 2] = rgb[2];
    png.data[i * 4 + 3] = 255;
  }
  return Uint8Array.from(PNG.sync.write(png));
}

export interface Id3Tags {
  title?: string;
  artist?: string;
  album?: string;
  genre?: string;
  cover?: Uint8Array;
}

const arrayBuffer = (bytes: Uint8Array): ArrayBuffer =>
  bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;

/** The MP3 with an ID3v2.3 tag in front. */
export function tagMp3(mp3: Uint8Array, tags: Id3Tags): Uint8Array {
  const writer = new ID3Writer(arrayBuffer(mp3));
  if (tags.title) writer.setFrame('TIT2', tags.title);
  if (tags.artist) writer.setFrame('TPE1', [tags.artist]);
  if (tags.album) writer.setFrame('TALB', tags.album);
  if (tags.genre) writer.setFrame('TCON', [tags.genre]);
  if (tags.cover) {
    writer.setFrame('APIC', { type: 3, data: arrayBuffer(tags.cover), description: 'Cover' });
  }
  return new Uint8Array(writer.addTag());
}
