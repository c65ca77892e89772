/**
 * Peak memory of one data export (docs/privacy-rights.md § Data export): an artist with N MB of
 * originals (default 200: four files of N/4 MB in a file object store under a temporary
 * DATA_DIR), the archive written by `writeArchive`.
 *
 *   npx tsx scripts/export-rss.ts streamed [MB]   the archive streamed to the file store
 *   npx tsx scripts/export-rss.ts in-memory [MB]  the archive assembled in memory first and then
 *                                                 written (what the job did before: the memory
 *                                                 store's putStream collects the whole zip)
 *
 * Prints the process's peak resident set (ru_maxrss) before and after the export.
 */
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeArchive, type ExportSections } from '../server/account/export-archive';
import { uploadsOnly } from '../tests/support/export-sections';
import { createFileObjectStore, createMemoryObjectStore } from '../server/storage/object-store';

const mode = process.argv[2] === 'in-memory' ? 'in-memory' : 'streamed';
const totalMb = Number(process.argv[3] ?? 200);
const files = 4;
const root = mkdtempSync(join(tmpdir(), 'soundloft-export-rss-'));
const originals = createFileObjectStore(root);
const fileMb = Math.ceil(totalMb / files);
const uploads: ExportSections['uploads'] = [];
const chunk = Buffer.alloc(1024 * 1024);
for (let i = 0; i < files; i++) {
  const name = `artist/${i}.wav`;
  const path = join(root, 'tracks', 'artist', `${i}.wav`);
  mkdirSync(join(root, 'tracks', 'artist'), { recursive: true });
  writeFileSync(path, '');
  for (let mb = 0; mb < fileMb; mb++) {
    chunk.fill((i * 31 + mb) & 0xff);
    writeFileSync(path, chunk, { flag: 'a' });
  }
  uploads.push({
    track: { id: `t${i}`, audio_url: `tracks/${name}` },
    lyrics: null,
    audio_file: `audio/t${i}-${i}.wav`,
  });
}
const sections = uploadsOnly(uploads);
const peak = () => Math.round(process.resourceUsage().maxRSS / 1024);
const before = peak();
// The in-memory mode reads the originals from the same files but keeps the archive in memory.
const target = mode === 'in-memory' ? createMemoryObjectStore() : originals;
const store = { ...originals, putStream: target.putStream.bind(target) };
const started = Date.now();
const written = await writeArchive(store, 'exports', 'artist/export.zip', sections, async () => {});
console.log(
  `${mode}: ${totalMb} MB of originals, archive ${(written.size / 1048576).toFixed(1)} MB in ` +
    `${Date.now() - started} ms; peak RSS ${before} MB before, ${peak()} MB after`,
);
rmSync(root, { recursive: true, force: true });
