/**
 * /storage/v1 as an outsider uses it: another user's folder, overwrites, moves and copies,
 * path traversal (`../`, `%2e%2e`, `%2f`, backslashes, NUL), HTML and SVG on our origin, magic
 * bytes against declared types, and bogus Range headers. Files on disk are checked too: nothing
 * may land outside the storage directory or in another user's folder.
 */
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { makeWav, synthSignal } from '../../server/processing/test-fixtures';
import { readAll } from '../../server/storage/object-store';
import { createUser, type TestUser } from '../../server/db/test-factories';
import { json, send, verify, verifyClientError, type Exchange } from './support/http';
import { startTarget, type Target } from './support/target';

let t: Target;
let owner: TestUser;
let other: TestUser;
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const WAV = Buffer.from(makeWav(synthSignal(1, { sampleRate: 8000, channels: 1 })));
const HTML = Buffer.from(
  '<!doctype html><html><body><script>alert(document.cookie)</script></body></html>',
);
const SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(document.cookie)"><script>alert(1)</script></svg>',
);

beforeAll(async () => {
  t = await startTarget();
  owner = await createUser(t.db, { established: true });
  other = await createUser(t.db, { established: true });
  await up(owner, 'avatars', `${owner.id}/face.png`, PNG, 'image/png');
  await up(owner, 'tracks', `${owner.id}/song.wav`, WAV, 'audio/wav');
});
afterAll(async () => {
  await t?.close();
});

function up(
  who: TestUser | null,
  bucket: string,
  path: string,
  body: Buffer,
  type: string,
  opts: { upsert?: boolean; method?: string } = {},
): Promise<Exchange> {
  return t.request(opts.method ?? 'POST', `/storage/v1/object/${bucket}/${path}`, {
    as: who ?? 'anon',
    body: new Uint8Array(body),
    headers: { 'Content-Type': type, ...(opts.upsert ? { 'x-upsert': 'true' } : {}) },
  });
}

/** Storage answers errors with HTTP 400 and the real status in the body. */
const refused = (x: Exchange) =>
  x.status === 401 ||
  x.status === 403 ||
  (x.status === 400 && /"statusCode":"(400|401|403|404|409|413|415|422)"/.test(x.body));

async function objectBytes(bucket: string, name: string): Promise<Buffer | null> {
  const { rows } = await t.db.query(
    'select 1 from storage.objects where bucket_id = $1 and name = $2',
    [bucket, name],
  );
  if (!rows.length) return null;
  return Buffer.from((await readAll(t.backend.store, bucket, name)) ?? new Uint8Array());
}

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    const p = join(dir, entry);
    if (statSync(p).isDirectory()) out.push(...filesUnder(p));
    else out.push(p);
  }
  return out;
}

describe("another user's files", () => {
  it('cannot be written, overwritten, moved, copied over or deleted by another user or anon', async () => {
    const attempts: Exchange[] = [
      await up(other, 'avatars', `${owner.id}/new.png`, PNG, 'image/png'),
      await up(other, 'avatars', `${owner.id}/face.png`, PNG, 'image/png', { upsert: true }),
      await up(other, 'avatars', `${owner.id}/face.png`, PNG, 'image/png', { method: 'PUT' }),
      await up(other, 'tracks', `${owner.id}/song.wav`, WAV, 'audio/wav', { upsert: true }),
      await up(null, 'avatars', `${owner.id}/anon.png`, PNG, 'image/png'),
      await up(null, 'covers', `anon.png`, PNG, 'image/png'),
      await t.request('DELETE', `/storage/v1/object/avatars/${owner.id}/face.png`, { as: other }),
      await t.request('DELETE', `/storage/v1/object/avatars`, {
        as: other,
        body: JSON.stringify({ prefixes: [`${owner.id}/face.png`] }),
      }),
      await t.request('POST', '/storage/v1/object/move', {
        as: other,
        body: JSON.stringify({
          bucketId: 'avatars',
          sourceKey: `${owner.id}/face.png`,
          destinationKey: `${other.id}/stolen.png`,
        }),
      }),
      await t.request('POST', '/storage/v1/object/copy', {
        as: other,
        body: JSON.stringify({
          bucketId: 'tracks',
          sourceKey: `${owner.id}/song.wav`,
          destinationKey: `${other.id}/stolen.wav`,
        }),
      }),
      await t.request('POST', '/storage/v1/object/copy', {
        as: other,
        body: JSON.stringify({
          bucketId: 'avatars',
          sourceKey: `${other.id}/x.png`,
          destinationKey: `${owner.id}/face.png`,
        }),
      }),
      await t.request('POST', `/storage/v1/object/sign/tracks/${owner.id}/song.wav`, {
        as: null,
        headers: { apikey: t.keys.anonKey },
        body: JSON.stringify({ expiresIn: 60 }),
      }),
    ];
    const failures = attempts.filter((x) => !refused(x) && x.status !== 200);
    for (const x of attempts) verifyClientError(x, 'storage');
    verify(failures.length === 0, 'an unexpected answer', ...failures);
    // A bulk delete answers 200 with the objects it removed: `[]` is a refusal.
    const accepted = attempts.filter((x) => x.status === 200 && x.body.trim() !== '[]');
    verify(accepted.length === 0, "an attack on another user's files was accepted", ...accepted);
    verify(
      (await objectBytes('avatars', `${owner.id}/face.png`))?.equals(PNG) === true,
      "the owner's avatar changed",
    );
    verify(
      (await objectBytes('tracks', `${owner.id}/song.wav`))?.equals(WAV) === true,
      "the owner's track changed",
    );
    for (const name of [
      `${other.id}/stolen.png`,
      `${other.id}/stolen.wav`,
      `${owner.id}/new.png`,
      `${owner.id}/anon.png`,
    ])
      verify(
        (await objectBytes(name.endsWith('wav') ? 'tracks' : 'avatars', name)) === null,
        `${name} exists`,
      );
  });

  it('a private original cannot be read without a signed URL, and a signed URL cannot be bent to another file', async () => {
    const direct = [
      await t.request('GET', `/storage/v1/object/public/tracks/${owner.id}/song.wav`),
      await t.request('GET', `/storage/v1/object/tracks/${owner.id}/song.wav`),
      await t.request('GET', `/storage/v1/object/authenticated/tracks/${owner.id}/song.wav`),
    ];
    for (const x of direct) {
      verifyClientError(x, 'private read');
      verify(
        x.status !== 200 && x.status !== 206,
        'a private original was served without a signature',
        x,
      );
    }
    const signed = await t.request('POST', `/storage/v1/object/sign/tracks/${owner.id}/song.wav`, {
      as: owner,
      body: JSON.stringify({ expiresIn: 60 }),
    });
    verify(signed.status === 200, 'owner signs their own original', signed);
    const url = new URL(json<{ signedURL: string }>(signed).signedURL, `${t.url}/storage/v1`);
    const path = url.pathname.startsWith('/storage/v1')
      ? url.pathname
      : `/storage/v1${url.pathname}`;
    const token = url.searchParams.get('token')!;
    const bent = [
      `/storage/v1/object/sign/tracks/${other.id}/song.wav?token=${token}`,
      `/storage/v1/object/sign/avatars/${owner.id}/face.png?token=${token}`,
      `${path}?token=${token.slice(0, -2)}xx`,
      `${path}?token=`,
      `${path}?token=${'x'.repeat(10_000)}`,
      `${path.replace('song.wav', '../song.wav')}?token=${token}`,
    ];
    for (const p of bent) {
      const x = await t.request('GET', p, { as: null });
      verifyClientError(x, 'bent signed URL');
      verify(x.status >= 400, 'a bent signed URL was served', x);
    }
  });
});

describe('path traversal', () => {
  it('never writes outside the caller’s folder nor reads outside the bucket', async () => {
    const me = other.id;
    const names = [
      `${me}/../${owner.id}/trav1.png`,
      `${me}/%2e%2e/${owner.id}/trav2.png`,
      `${me}/..%2f${owner.id}/trav3.png`,
      `${me}/%2e%2e%2f%2e%2e%2f%2e%2e%2ftmp%2ftrav4.png`,
      `${me}/..\\..\\${owner.id}\\trav5.png`,
      `${me}/trav6.png%00.html`,
      `${me}/trav7%00/../../x.png`,
      `${me}/./../${owner.id}/trav8.png`,
      `${me}//${owner.id}/trav9.png`,
      `%2f${owner.id}/trav10.png`,
      `${me}/${'a'.repeat(2000)}.png`,
      `${me}/%ff%fe.png`,
    ];
    const dataDir = t.dataDir;
    const before = new Set(filesUnder(dataDir));
    for (const name of names) {
      const x = await send('POST', `${t.url}/storage/v1/object/avatars/${name}`, {
        headers: {
          apikey: t.keys.anonKey,
          Authorization: `Bearer ${t.token(other)}`,
          'Content-Type': 'image/png',
        },
        body: new Uint8Array(PNG),
      });
      verifyClientError(x, `upload ${name}`);
      if (x.status === 200) {
        const key = json<{ Key: string }>(x).Key;
        verify(
          key.startsWith(`avatars/${me}/`) && !key.includes('..') && !key.includes('\u0000'),
          `stored as ${key}`,
          x,
        );
      }
    }
    const after = filesUnder(dataDir).filter((f) => !before.has(f));
    for (const f of after) {
      const rel = relative(dataDir, f);
      verify(
        rel.startsWith(join('avatars', me)) || !rel.includes(owner.id),
        `a file landed at ${rel}`,
      );
      verify(!rel.startsWith('..'), `a file landed outside the storage directory: ${f}`);
    }
    for (const outside of [
      join(tmpdir(), 'trav4.png'),
      '/tmp/trav4.png',
      join(t.dataDir, '..', 'trav4.png'),
    ])
      verify(!existsSync(outside), `a file landed outside the storage directory: ${outside}`);
    const { rows } = await t.db.query<{ name: string }>(
      `select name from storage.objects where name like $1 or name like '%..%' or name like '/%'`,
      [`${owner.id}/trav%`],
    );
    verify(rows.length === 0, `objects in the wrong place: ${rows.map((r) => r.name).join(', ')}`);
    for (const p of [
      '/storage/v1/object/public/avatars/../../../../../../etc/passwd',
      '/storage/v1/object/public/avatars/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd',
      '/storage/v1/object/public/avatars/..%2f..%2f..%2f..%2fetc%2fpasswd',
      '/storage/v1/object/public/avatars/%2e%2e%5c%2e%2e%5cetc%5cpasswd',
      '/storage/v1/object/public/..%2f..%2fpackage.json',
      `/storage/v1/object/public/avatars/${owner.id}/face.png%00.html`,
      '/storage/v1/object/public/avatars/%00',
    ]) {
      const x = await send('GET', `${t.url}${p}`);
      verifyClientError(x, `read ${p}`);
      verify(
        !/root:x:0:0|"name":\s*"soundloft"/.test(x.body),
        `read a file outside the bucket: ${p}`,
        x,
      );
      verify(x.status >= 400, `answered ${x.status} for ${p}`, x);
    }
  });
});

describe('what our origin serves', () => {
  it('never HTML or SVG inline: refused at upload, whatever the declared type', async () => {
    const me = other.id;
    const cases: [string, Buffer, string][] = [
      ['page.html', HTML, 'text/html'],
      ['page.png', HTML, 'image/png'],
      ['image.svg', SVG, 'image/svg+xml'],
      ['image.png', SVG, 'image/png'],
      ['page.htm', HTML, 'application/octet-stream'],
      ['x.xhtml', HTML, 'application/xhtml+xml'],
      ['song.wav', HTML, 'audio/wav'],
    ];
    for (const [file, bytes, type] of cases)
      for (const bucket of ['avatars', 'covers', 'tracks']) {
        const x = await up(other, bucket, `${me}/${file}`, bytes, type);
        verifyClientError(x, `upload ${file}`);
        verify(refused(x), `${bucket}/${file} (${type}) was stored`, x);
      }
  });

  it('serves every stored object with its sniffed type, nosniff and a sandboxing CSP', async () => {
    // A polyglot: a real PNG with HTML after the image data.
    const polyglot = Buffer.concat([PNG, HTML]);
    const stored = await up(other, 'avatars', `${other.id}/poly.png`, polyglot, 'text/html');
    verifyClientError(stored, 'polyglot');
    for (const path of [
      `avatars/${owner.id}/face.png`,
      ...(stored.status === 200 ? [`avatars/${other.id}/poly.png`] : []),
    ]) {
      for (const q of ['', '?download=x.html', '?download']) {
        const x = await send('GET', `${t.url}/storage/v1/object/public/${path}${q}`);
        verify(x.status === 200, `GET ${path}${q}`, x);
        const type = x.headers['content-type'] ?? '';
        verify(/^image\/png\b/.test(type), `served as ${type}`, x);
        verify(x.headers['x-content-type-options'] === 'nosniff', 'no nosniff', x);
        verify(/sandbox/.test(x.headers['content-security-policy'] ?? ''), 'no sandboxing CSP', x);
        const disposition = x.headers['content-disposition'] ?? '';
        verify(
          !/\.html?\b|\.svg\b/i.test(disposition) || /attachment/i.test(disposition),
          `disposition ${disposition}`,
          x,
        );
      }
    }
  });

  it('checks magic bytes against the declared type and the bucket', async () => {
    const me = other.id;
    const cases: [string, string, Buffer, string][] = [
      ['avatars', 'a.png', WAV, 'image/png'],
      ['tracks', 'b.wav', PNG, 'audio/wav'],
      ['avatars', 'c.png', Buffer.from('MZ\x90\x00 this is a windows executable'), 'image/png'],
      ['avatars', 'd.png', Buffer.from('PK\x03\x04 a zip archive'), 'image/png'],
      ['avatars', 'e.png', Buffer.alloc(0), 'image/png'],
      ['avatars', 'f.png', PNG.subarray(0, 8), 'image/png'],
    ];
    for (const [bucket, file, bytes, type] of cases) {
      const x = await up(other, bucket, `${me}/${file}`, bytes, type);
      verifyClientError(x, `upload ${file}`);
      if (x.status === 200) {
        const served = await t.request('GET', `/storage/v1/object/info/${bucket}/${me}/${file}`, {
          as: other,
        });
        verify(
          !/image\/png/.test(served.body) || bytes.subarray(0, 4).equals(PNG.subarray(0, 4)),
          `${bucket}/${file} stored as a PNG`,
          x,
          served,
        );
      }
      if (bucket === 'avatars' && !bytes.subarray(0, 8).equals(PNG.subarray(0, 8)))
        verify(refused(x), `${bucket}/${file}: non-image bytes stored as an avatar`, x);
      if (bucket === 'tracks') verify(refused(x), `${bucket}/${file}: an image stored as audio`, x);
    }
  });
});

describe('Range headers', () => {
  it('bogus ranges are a 200, 206 or 416, never a 5xx or a wrong body', async () => {
    const ranges = [
      'bytes=5-1',
      'bytes=-0',
      'bytes=999999999-',
      'bytes=0-18446744073709551616',
      'bytes=-99999999999999999999',
      'bytes=abc',
      'bytes=',
      'items=0-1',
      'bytes=0-0,1-1,2-2',
      `bytes=${Array.from({ length: 300 }, (_, i) => `${i}-${i}`).join(',')}`,
      `bytes=${Array.from({ length: 3000 }, (_, i) => `${i}-${i}`).join(',')}`,
      'bytes=1e3-2e3',
      'bytes=0x10-0x20',
      'bytes=-1-2',
      'bytes = 0-1',
      'bytes=0-1\u0000',
    ];
    const size = PNG.length;
    for (const range of ranges) {
      let x: Exchange;
      try {
        x = await send('GET', `${t.url}/storage/v1/object/public/avatars/${owner.id}/face.png`, {
          headers: { Range: range },
        });
      } catch {
        continue; // fetch itself refuses some header values (NUL): nothing was sent
      }
      verifyClientError(x, `Range: ${range.slice(0, 40)}`);
      // 431: Node refuses headers over 16 KB before the app sees them.
      verify(
        [200, 206, 416, 431].includes(x.status),
        `Range ${range.slice(0, 40)}: ${x.status}`,
        x,
      );
      if (x.status === 200)
        verify(
          x.body.length > 0 && Number(x.headers['content-length'] ?? size) === size,
          'a 200 without the whole file',
          x,
        );
      if (x.status === 206) {
        const m = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(x.headers['content-range'] ?? '');
        verify(
          m !== null && Number(m[2]) < size && Number(m[1]) <= Number(m[2]),
          `bad Content-Range ${x.headers['content-range']}`,
          x,
        );
      }
    }
    verify(await t.healthy(), 'the server is not healthy after the ranges');
  });
});
