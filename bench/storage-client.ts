/**
 * Child process of the storage bench (started by bench/storage-protocol.ts with `node --import
 * tsx`): builds the WAV, uploads it with supabase-js (a File, as the app's upload form passes
 * one: multipart) and with a raw fetch, then reads it back through the public URL. Every request
 * runs one at a time and carries `x-bench: <kind>`. Exits when the bench goes away.
 */
import { createClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import type {
  ClientJob,
  ClientReply,
  ClientRequest,
  ClientResult,
  ReadTiming,
  RequestKind,
  UploadTiming,
} from './storage-protocol';
import { makeWav } from './wav';
import { random } from '../server/seed/prng';

const BUCKET = 'tracks';

const encodeName = (name: string) => name.split('/').map(encodeURIComponent).join('/');

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.from(a.buffer, a.byteOffset, a.length).equals(
    Buffer.from(b.buffer, b.byteOffset, b.length),
  );
}

/** Fetches until the first body chunk, then cancels the body. */
async function firstChunk(
  url: string,
  kind: RequestKind,
  headers: Record<string, string> = {},
): Promise<ReadTiming & { status: number; contentRange: string | null; chunk: Uint8Array }> {
  const started = performance.now();
  const res = await fetch(url, { headers: { ...headers, 'x-bench': kind } });
  const headersMs = performance.now() - started;
  if (!res.body) throw new Error(`${kind}: ${res.status} without a body`);
  const reader = res.body.getReader();
  const { value } = await reader.read();
  const firstChunkMs = performance.now() - started;
  await reader.cancel();
  if (!value) throw new Error(`${kind}: ${res.status} with an empty body`);
  return {
    headersMs,
    firstChunkMs,
    status: res.status,
    contentRange: res.headers.get('content-range'),
    chunk: value,
  };
}

/** Reads a whole body, counting bytes (nothing kept). */
async function drain(res: Response): Promise<number> {
  if (!res.body) return 0;
  let total = 0;
  for await (const chunk of res.body) total += chunk.length;
  return total;
}

async function runJob(job: ClientJob): Promise<ClientResult> {
  const wavStarted = performance.now();
  const wav = makeWav(job.fileBytes);
  const file = new File([wav], 'bench.wav', { type: 'audio/wav' });
  const wavMs = performance.now() - wavStarted;
  const supabase = createClient(job.origin, job.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    // ws's constructor is wider than supabase-js's WebSocketLikeConstructor (as server/functions).
    realtime: { transport: WebSocket as never },
    global: { headers: { Authorization: `Bearer ${job.token}` } },
  });
  const tracks = supabase.storage.from(BUCKET);

  // Uploads: supabase-js and raw fetch alternately, one warm-up of each first.
  const stamp = Date.now();
  const uploads: UploadTiming[] = [];
  for (let i = 0; i <= job.uploads; i++) {
    for (const kind of ['upload-sbjs', 'upload-raw'] as const) {
      const name = `${job.userId}/${stamp}_bench_${kind}_${i}.wav`;
      const started = performance.now();
      if (kind === 'upload-sbjs') {
        const { data, error } = await tracks.upload(name, file, {
          contentType: 'audio/wav',
          headers: { 'x-bench': kind },
        });
        if (error || data.fullPath !== `${BUCKET}/${name}`)
          throw new Error(`supabase-js upload: ${error?.message ?? JSON.stringify(data)}`);
      } else {
        const res = await fetch(`${job.origin}/storage/v1/object/${BUCKET}/${encodeName(name)}`, {
          method: 'POST',
          headers: {
            apikey: job.anonKey,
            Authorization: `Bearer ${job.token}`,
            'Content-Type': 'audio/wav',
            'x-upsert': 'false',
            'x-bench': kind,
          },
          body: wav,
        });
        const body = await res.text();
        if (
          res.status !== 200 ||
          (JSON.parse(body) as { Key?: string }).Key !== `${BUCKET}/${name}`
        )
          throw new Error(`raw upload: ${res.status} ${body.slice(0, 200)}`);
      }
      uploads.push({ kind, name, ms: performance.now() - started, warmup: i === 0 });
    }
  }

  // Reads: the last raw upload, through the public URL supabase-js gives.
  const readName = uploads.at(-1)?.name ?? '';
  const publicUrl = tracks.getPublicUrl(readName).data.publicUrl;
  const check = await fetch(publicUrl, { headers: { 'x-bench': 'verify' } });
  const back = new Uint8Array(await check.arrayBuffer());
  if (check.status !== 200 || !sameBytes(back, wav))
    throw new Error(`public URL: ${check.status}, ${back.length} bytes, not the uploaded file`);

  const rnd = random(1);
  const rangeOnce = async (kind: RequestKind) => {
    const offset = Math.floor(rnd() * (job.fileBytes - job.rangeBytes));
    const end = offset + job.rangeBytes - 1;
    const r = await firstChunk(publicUrl, kind, { Range: `bytes=${offset}-${end}` });
    const expected = wav.subarray(offset, offset + r.chunk.length);
    if (
      r.status !== 206 ||
      r.contentRange !== `bytes ${offset}-${end}/${job.fileBytes}` ||
      !sameBytes(r.chunk, expected)
    )
      throw new Error(`Range ${offset}-${end}: ${r.status} ${r.contentRange}, wrong answer`);
    return r;
  };
  const plainOnce = async (kind: RequestKind) => {
    const r = await firstChunk(publicUrl, kind);
    if (r.status !== 200 || !sameBytes(r.chunk, wav.subarray(0, r.chunk.length)))
      throw new Error(`plain GET: ${r.status}, wrong answer`);
    return r;
  };
  for (let i = 0; i < job.warmups; i++) {
    await rangeOnce('warmup');
    await plainOnce('warmup');
  }
  const range: ReadTiming[] = [];
  const plain: ReadTiming[] = [];
  const firstChunkBytes: number[] = [];
  for (let i = 0; i < job.reads; i++) {
    const r = await rangeOnce('range');
    range.push({ headersMs: r.headersMs, firstChunkMs: r.firstChunkMs });
    firstChunkBytes.push(r.chunk.length);
    const p = await plainOnce('plain');
    plain.push({ headersMs: p.headersMs, firstChunkMs: p.firstChunkMs });
  }

  const downloads: number[] = [];
  for (let i = 0; i < job.downloads; i++) {
    const started = performance.now();
    const res = await fetch(publicUrl, { headers: { 'x-bench': 'download' } });
    const bytes = await drain(res);
    downloads.push(performance.now() - started);
    if (res.status !== 200 || bytes !== job.fileBytes)
      throw new Error(`download: ${res.status}, ${bytes} bytes`);
  }
  return { wavMs, uploads, readName, publicUrl, range, plain, firstChunkBytes, downloads };
}

const send = (reply: ClientReply) => process.send?.(reply);

process.on('message', (message: ClientRequest) => {
  runJob(message.job).then(
    (result) => send({ id: message.id, result }),
    (error: unknown) =>
      send({ id: message.id, error: error instanceof Error ? error.message : String(error) }),
  );
});
process.on('disconnect', () => process.exit(0));
// The bench may have gone while this process was still loading.
if (!process.connected) process.exit(0);
send({ id: 0 });
