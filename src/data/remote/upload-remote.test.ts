/**
 * The resumable upload against a real TUS 1.0 server (@tus/server with its file store, the
 * implementation tus.io maintains), through the real tus-js-client: every byte arrives, and a
 * connection dropped in the middle of the file is resumed, with 'Reconnecting…' in between.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileStore } from '@tus/file-store';
import { Server } from '@tus/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { shouldRetryStatus, storageMessage, uploadResumable } from './upload-remote';

/** The app sends 6 MB chunks; jsdom's XMLHttpRequest needs seconds per MB, so tests use less. */
const CHUNK = 64 * 1024;

// The browser build, as the app ships it (vitest would resolve the Node build, which reads
// Buffers and streams, not Blobs); jsdom's XMLHttpRequest speaks real HTTP to the server.
// @ts-expect-error: the browser build has no declaration of its own (lib/index.d.ts covers it).
vi.mock('tus-js-client', () => import('tus-js-client/lib.esm/browser/index.js'));

const PATH = '/storage/v1/upload/resumable';
let dir: string;
let http: HttpServer;
let endpoint: string;
let patches = 0;
let dropNextPatch = false;
let refuse: number | null = null;
const authHeaders: string[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tus-'));
  const tus = new Server({
    path: PATH,
    datastore: new FileStore({ directory: dir }),
    // jsdom enforces CORS (the app itself is same-origin): Supabase's headers are allowed.
    allowedHeaders: ['authorization', 'apikey', 'x-upsert'],
  });
  patches = 0;
  dropNextPatch = false;
  refuse = null;
  authHeaders.length = 0;
  http = createServer((req, res) => {
    if (req.method !== 'OPTIONS') authHeaders.push(String(req.headers.authorization));
    if (refuse !== null && req.method === 'POST') {
      res.writeHead(refuse, {
        'content-type': 'application/json',
        'access-control-allow-origin': '*',
        'access-control-expose-headers': '*',
      });
      res.end(
        JSON.stringify({
          statusCode: String(refuse),
          error: 'Payload too large',
          message: 'The object exceeded the maximum allowed size',
        }),
      );
      return;
    }
    if (req.method === 'PATCH') {
      patches += 1;
      if (dropNextPatch) {
        dropNextPatch = false;
        // The connection drops after part of the chunk went out: nothing of it is stored.
        req.once('data', () => req.socket.destroy());
        return;
      }
    }
    void tus.handle(req, res);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(http.address() as AddressInfo).port}${PATH}`;
});

afterEach(async () => {
  await new Promise((resolve) => http.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

function bytes(size: number): Uint8Array {
  const out = new Uint8Array(size);
  for (let i = 0; i < size; i++) out[i] = (i * 31 + (i >> 8)) & 0xff;
  return out;
}

async function stored(): Promise<Uint8Array> {
  const files = (await readdir(dir)).filter((f) => !f.endsWith('.json'));
  expect(files).toHaveLength(1);
  return new Uint8Array(await readFile(join(dir, files[0] as string)));
}

const options = (file: Blob) => ({
  endpoint,
  anonKey: 'anon',
  accessToken: 'token',
  file,
  objectName: 'user-1/1700000000000_song.mp3',
  contentType: 'audio/mpeg',
  retryDelays: [0, 50, 50, 50],
  chunkSize: CHUNK,
});

describe('uploadResumable (tus-js-client against @tus/server)', { timeout: 60_000 }, () => {
  it('sends every byte in chunks, the first with the creation, and reports real progress', async () => {
    const data = bytes(CHUNK * 2 + 10_000);
    const progress: number[] = [];
    await uploadResumable({
      ...options(new Blob([data as Uint8Array<ArrayBuffer>])),
      onProgress: (sent, total) => {
        expect(total).toBe(data.length);
        progress.push(sent);
      },
    });
    expect(await stored()).toEqual(data);
    expect(patches).toBe(2);
    expect(progress.at(-1)).toBe(data.length);
    expect(progress.some((p) => p > 0 && p < data.length)).toBe(true);
    expect(authHeaders.every((h) => h === 'Bearer token')).toBe(true);
  });

  it('resumes after the connection drops mid-file, saying it is reconnecting', async () => {
    const data = bytes(CHUNK * 3 + 5_000);
    dropNextPatch = true;
    const states: boolean[] = [];
    await uploadResumable({
      ...options(new Blob([data as Uint8Array<ArrayBuffer>])),
      onReconnecting: (value) => states.push(value),
    });
    expect(states).toEqual([true, false]);
    expect(patches).toBe(4);
    expect(await stored()).toEqual(data);
  });

  it("refuses with Storage's message and its status, without retrying", async () => {
    refuse = 413;
    await expect(
      uploadResumable(options(new Blob([bytes(1000) as Uint8Array<ArrayBuffer>]))),
    ).rejects.toMatchObject({
      status: 413,
      message: 'The object exceeded the maximum allowed size',
    });
  });
});

describe('helpers', () => {
  it('retries dropped connections and server errors, never a refusal', () => {
    expect(shouldRetryStatus(0)).toBe(true);
    expect(shouldRetryStatus(503)).toBe(true);
    expect(shouldRetryStatus(409)).toBe(true);
    expect(shouldRetryStatus(413)).toBe(false);
    expect(shouldRetryStatus(415)).toBe(false);
    expect(shouldRetryStatus(403)).toBe(false);
  });

  it("reads Storage's error body", () => {
    expect(storageMessage('{"statusCode":"415","error":"x","message":"Invalid mime type"}')).toBe(
      'Invalid mime type',
    );
    expect(storageMessage('plain words')).toBe('plain words');
    expect(storageMessage('')).toBeNull();
  });
});
