import { describe, expect, it } from 'vitest';
import { uploadsOnly } from '../../tests/support/export-sections';
import { unzip } from '../../tests/support/unzip';
import { createMemoryObjectStore } from '../storage/object-store';
import { writeArchive, type ExportSections } from './export-archive';

const sections = (uploads: ExportSections['uploads']) =>
  uploadsOnly(uploads, { profile: { account: { id: 'u1' } }, likes: [{ track_id: 't9' }] });

describe('writeArchive', () => {
  it('streams the zip into the store: the JSON, and each original byte for byte', async () => {
    const store = createMemoryObjectStore();
    const audio = new Uint8Array(3 * 1024 * 1024).map((_, i) => (i * 13) & 0xff);
    await store.put('tracks', 'u1/song.wav', audio);
    const progress: number[] = [];
    const written = await writeArchive(
      store,
      'exports',
      'u1/e1.zip',
      sections([
        {
          track: { id: 't1', audio_url: 'tracks/u1/song.wav' },
          lyrics: null,
          audio_file: 'audio/t1-song.wav',
        },
        { track: { id: 't2', audio_url: 'tracks/u1/gone.wav' }, lyrics: null, audio_file: null },
      ]),
      async (f) => {
        progress.push(f);
      },
    );
    const stored = await store.read('exports', 'u1/e1.zip');
    const bytes = Buffer.from(await new Response(stored!.stream).arrayBuffer());
    expect(written.size).toBe(bytes.length);
    expect(written.eTag).toMatch(/^"[0-9a-f]{32}"$/);
    const files = await unzip(bytes);
    expect(Buffer.compare(files.get('audio/t1-song.wav')!, Buffer.from(audio))).toBe(0);
    expect(JSON.parse(files.get('likes.json')!.toString())).toEqual([{ track_id: 't9' }]);
    expect(files.has('README.txt')).toBe(true);
    expect(progress).toEqual([1]);
  });

  it('fails, and writes nothing, when the store refuses the upload', async () => {
    const store = createMemoryObjectStore();
    await store.put('tracks', 'u1/song.wav', new Uint8Array(1024));
    const refusing = {
      ...store,
      putStream: async () => {
        throw new Error('store is down');
      },
    };
    await expect(
      writeArchive(
        refusing,
        'exports',
        'u1/e2.zip',
        sections([
          {
            track: { id: 't1', audio_url: 'tracks/u1/song.wav' },
            lyrics: null,
            audio_file: 'audio/t1-song.wav',
          },
        ]),
        async () => {},
      ),
    ).rejects.toThrow(/store is down/);
    expect(await store.read('exports', 'u1/e2.zip')).toBeNull();
  });
});
