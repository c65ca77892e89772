import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_HOOK_TIMEOUT_MS } from '../db/test-database';
import type { TestUser } from '../db/test-factories';
import { startStorageHarness, type StorageHarness } from './test-support';
import { sameBytes, wavBytes } from './test-files';

const dataDir = mkdtempSync(join(tmpdir(), 'soundloft-storage-'));
let h: StorageHarness;
let artist: TestUser;
beforeAll(async () => {
  h = await startStorageHarness({ dataDir });
  artist = await h.newUser();
}, DATABASE_HOOK_TIMEOUT_MS);
afterAll(async () => {
  await h?.close();
  rmSync(dataDir, { recursive: true, force: true });
}, DATABASE_HOOK_TIMEOUT_MS);

describe('files under DATA_DIR/storage', { timeout: 60_000 }, () => {
  it('writes uploads to disk, streams ranges from the file and deletes it', async () => {
    const name = `${artist.id}/${Date.now()}_Long_Take.wav`;
    const wav = wavBytes(256 * 1024);
    const storage = h.client(artist).storage.from('tracks');
    expect((await storage.upload(name, wav, { contentType: 'audio/wav' })).error).toBeNull();
    const file = join(dataDir, 'storage', 'tracks', ...name.split('/'));
    expect(sameBytes(readFileSync(file), wav)).toBe(true);

    const url = (await storage.createSignedUrl(name, 60)).data!.signedUrl;
    const res = await fetch(url, { headers: { Range: 'bytes=100000-100009' } });
    expect(res.status).toBe(206);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(wav.subarray(100000, 100010));
    const whole = await fetch(url);
    expect(whole.headers.get('content-length')).toBe(String(wav.length));
    expect(sameBytes(await whole.arrayBuffer(), wav)).toBe(true);

    expect((await storage.remove([name])).data).toHaveLength(1);
    expect(existsSync(file)).toBe(false);
  });
});
