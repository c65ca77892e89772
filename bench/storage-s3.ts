/**
 * Range GETs side by side, disk vs S3 (issue 30): one 20 MB WAV in the files store and in S3
 * (s3rver, in this process), the same `storage.objects` row, two `/storage/v1` apps, and
 * alternating signed-URL reads of 64 KiB at random offsets, one request at a time. Part of
 * `npm run bench -- storage`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { openTestDatabase } from '../server/db/test-database';
import { createUser } from '../server/db/test-factories';
import { createStorageApp } from '../server/storage/app';
import { openObjectStore, type ObjectStore } from '../server/storage/object-store';
import { createS3ObjectStore } from '../server/storage/s3-object-store';
import { putObjectAsService } from '../server/storage/service';
import { signObjectUrl } from '../server/storage/signed-urls';
import { wavBytes } from '../server/storage/test-files';
import { serveApp } from '../server/storage/test-support';
import { startTestS3Server } from '../server/storage/test-s3';
import { Cleanup } from './cleanup';

const FILE_BYTES = 20_000_000;
const RANGE_BYTES = 64 * 1024;
const ROUNDS = 200;
const WARMUPS = 10;
const SECRET = 'soundloft-bench-secret-at-least-32-characters';

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))] ?? NaN;
};
const la = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

interface Backend {
  label: string;
  url: string;
  store: ObjectStore;
  headersMs: number[];
  bodyMs: number[];
}

export async function benchStorageDiskVsS3(): Promise<void> {
  console.log(
    `\nRange GET, disk vs S3 (issue 30): ${ROUNDS} signed-URL reads of ${RANGE_BYTES / 1024} KiB at random offsets of a ${FILE_BYTES / 1e6} MB object on each, alternating`,
  );
  const cleanup = new Cleanup();
  try {
    const test = await openTestDatabase();
    cleanup.add('close database', () => test.close());
    const s3 = await startTestS3Server();
    cleanup.add('stop s3rver', () => s3.close());
    const dataDir = await mkdtemp(join(tmpdir(), 'soundloft-bench-s3-'));
    cleanup.add(`remove ${dataDir}`, () => rm(dataDir, { recursive: true, force: true }));

    const user = await createUser(test.db, { name: 'Bench Uploader' });
    const name = `${user.id}/bench.wav`;
    const bytes = wavBytes(FILE_BYTES - 44);
    const disk = openObjectStore(dataDir);
    const onS3 = createS3ObjectStore(s3.config);
    let t0 = performance.now();
    await putObjectAsService(test.db, disk, {
      bucket: 'tracks',
      name,
      owner: user.id,
      bytes,
      contentType: 'audio/wav',
    });
    const diskPutMs = performance.now() - t0;
    t0 = performance.now();
    await onS3.put('tracks', name, bytes); // the same row serves both
    const s3PutMs = performance.now() - t0;

    const backends: Backend[] = [];
    for (const [label, store] of [
      ['disk (files)', disk],
      ['S3 (s3rver)', onS3],
    ] as const) {
      const app = new Hono();
      app.route(
        '/storage/v1',
        createStorageApp({ db: test.db, keys: { jwtSecret: SECRET }, store }),
      );
      const server = await serveApp(app);
      cleanup.add(`close ${label} server`, () => server.close());
      backends.push({ label, url: server.url, store, headersMs: [], bodyMs: [] });
    }
    const token = signObjectUrl(SECRET, 'tracks', name, 3600);
    const path = `/storage/v1/object/sign/tracks/${name}?token=${token}`;

    const read = async (b: Backend, offset: number, record: boolean) => {
      const start = performance.now();
      const res = await fetch(`${b.url}${path}`, {
        headers: { Range: `bytes=${offset}-${offset + RANGE_BYTES - 1}` },
      });
      const headers = performance.now() - start;
      const body = new Uint8Array(await res.arrayBuffer());
      const total = performance.now() - start;
      if (res.status !== 206 || body.length !== RANGE_BYTES || body[0] !== bytes[offset])
        throw new Error(`${b.label}: ${res.status}, ${body.length} bytes at ${offset}`);
      if (record) {
        b.headersMs.push(headers);
        b.bodyMs.push(total);
      }
    };
    const loadBefore = la();
    let s3Bytes = 0;
    for (let i = 0; i < WARMUPS + ROUNDS; i++) {
      const offset = Math.floor(Math.random() * (FILE_BYTES - RANGE_BYTES));
      for (const b of i % 2 ? [...backends].reverse() : backends) {
        const before = s3.bytesSent();
        await read(b, offset, i >= WARMUPS);
        if (b.store === onS3 && i >= WARMUPS) s3Bytes += s3.bytesSent() - before;
      }
    }
    const rows = backends.map((b) => [
      b.label,
      String(b.headersMs.length),
      quantile(b.headersMs, 0.5).toFixed(2),
      quantile(b.headersMs, 0.95).toFixed(2),
      quantile(b.bodyMs, 0.5).toFixed(2),
      quantile(b.bodyMs, 0.95).toFixed(2),
      (RANGE_BYTES / 1e6 / (quantile(b.bodyMs, 0.5) / 1000)).toFixed(0),
    ]);
    const head = [
      'backend',
      'n',
      'headers p50 ms',
      'p95',
      'whole 64 KiB p50 ms',
      'p95',
      'MB/s p50',
    ];
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
    for (const r of [head, ...rows])
      console.log(
        '  ' +
          r
            .map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0)))
            .join('  '),
      );
    console.log(
      [
        `  S3 server sent ${(s3Bytes / ROUNDS / 1024).toFixed(1)} KiB per 64 KiB Range read (HEAD + ranged GET, headers included): the range, never the object.`,
        `  writing the object once: disk ${diskPutMs.toFixed(0)} ms (row, sniff, MD5, file), S3 ${s3PutMs.toFixed(0)} ms (multipart, ${Math.ceil(FILE_BYTES / s3.config.partSize)} parts of ${s3.config.partSize / 1048576} MiB).`,
        `  load average ${loadBefore} before, ${la()} after. Server, client and s3rver share this process and its 2 cores, one request at a time:`,
        '  the S3 column includes s3rver reading its file and two extra loopback round trips (HEAD for the size, then GET),',
        '  so it is the overhead of S3 on one machine, not the latency of a remote store (add its network RTT twice).',
      ].join('\n'),
    );
  } finally {
    await cleanup.run();
  }
}
