/**
 * Malformed and oversized requests against every API prefix: broken and 10 MB JSON bodies,
 * deep nesting (in bodies and in PostgREST's select / or= grammar), very long URLs, broken
 * percent-encoding, NUL bytes, silly Range / Prefer / Accept headers, and slow partial
 * requests (slowloris). Never a 5xx, never a stack trace or SQL in an answer, and the server
 * answers a health check and a database query afterwards (and while the slow requests hang).
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { createUser, type TestUser } from '../../server/db/test-factories';
import { send, verify, verifyClientError, type Exchange } from './support/http';
import { startTarget, type Target } from './support/target';

let t: Target;
let user: TestUser;

beforeAll(async () => {
  t = await startTarget();
  user = await createUser(t.db, { established: true });
});
afterAll(async () => {
  await t?.close();
});

const TEN_MB = 10 * 1024 * 1024;
const deep = (n: number, open: string, close: string, inner = '1') =>
  open.repeat(n) + inner + close.repeat(n);

/** JSON endpoints of every module (method, path). */
const JSON_ENDPOINTS: [string, string][] = [
  ['POST', '/rest/v1/playlists'],
  ['PATCH', '/rest/v1/profiles?id=eq.00000000-0000-0000-0000-000000000000'],
  ['POST', '/rest/v1/rpc/recommend_tracks'],
  ['POST', '/rest/v1/rpc/apply_mutations'],
  ['POST', '/auth/v1/token?grant_type=password'],
  ['POST', '/auth/v1/signup'],
  ['POST', '/auth/v1/verify'],
  ['PUT', '/auth/v1/user'],
  ['POST', '/storage/v1/object/sign/avatars'],
  ['POST', '/storage/v1/object/move'],
  ['POST', '/storage/v1/object/list/avatars'],
  ['POST', '/functions/v1/get-recommendations'],
  ['POST', '/functions/v1/create-checkout-session'],
];

async function sendAll(bodies: [string, string | Uint8Array][]): Promise<void> {
  for (const [what, body] of bodies)
    for (const [method, path] of JSON_ENDPOINTS) {
      let x: Exchange;
      try {
        x = await t.request(method, path, {
          as: user,
          body,
          headers: { 'Content-Type': 'application/json' },
        });
      } catch (error) {
        // The server may close the connection on an oversized body (after its 413): only a
        // server that stops answering fails, checked below.
        if (!(await t.healthy()))
          throw new Error(`${method} ${path} with ${what}: ${String(error)}`, { cause: error });
        continue;
      }
      verifyClientError(x, `${method} ${path} with ${what}`);
    }
  verify(await t.healthy(), 'the server stopped answering /healthz');
}

async function dbAnswers(): Promise<boolean> {
  try {
    const res = await fetch(`${t.url}/rest/v1/plans?select=id`, {
      headers: { apikey: t.keys.anonKey },
      signal: AbortSignal.timeout(60_000),
    });
    return res.status === 200;
  } catch {
    return false;
  }
}

describe('bodies', () => {
  it('malformed JSON', async () => {
    await sendAll([
      ['a truncated object', '{"name": "x"'],
      ['a bare word', 'undefined'],
      ['a string', '"x"'],
      ['a number', '1e999999'],
      ['trailing commas', '{"a":1,}'],
      ['a NUL byte', '{"name":"a\\u0000b","email":"a\\u0000@x.test","password":"p\\u0000"}'],
      ['a lone surrogate', '{"name":"\\ud800"}'],
      [
        'invalid UTF-8',
        new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
      ],
      ['an empty body', ''],
      ['null', 'null'],
      ['an array of nulls', '[null,null]'],
      ['__proto__', '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"x":1}}}'],
    ]);
  });

  it('10 MB bodies', async () => {
    const big = `{"name":"${'x'.repeat(TEN_MB)}"}`;
    const rows = `[${Array.from({ length: 100_000 }, () => '{"name":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}').join(',')}]`;
    await sendAll([['a 10 MB string', big]]);
    // A bulk write is bounded: one request may not hold the database for everyone else (on
    // PGlite a 10 MB POST of 100,000 playlists took over a minute of its only connection).
    const thousandAndOne = `[${Array.from({ length: 1001 }, () => '{"name":"n"}').join(',')}]`;
    for (const [path, body] of [
      ['/rest/v1/playlists', rows],
      ['/rest/v1/playlists', thousandAndOne],
      ['/rest/v1/playlists', big],
      ['/rest/v1/rpc/apply_mutations', big],
    ] as const) {
      const x = await t.request('POST', path, { as: user, body }).catch(() => null);
      if (!x) continue; // the server closed the connection after refusing: checked below
      verifyClientError(x, `POST ${path} with ${body.length} characters`);
      verify(
        x.status === 413,
        `POST ${path} with ${body.length} characters was not refused as too large`,
        x,
      );
    }
    const { rows: made } = await t.db.query(
      'select 1 from public.playlists where created_by = $1',
      [user.id],
    );
    verify(made.length === 0, `a bulk write made ${made.length} playlists`);
    verify(await dbAnswers(), 'the database stopped answering after 10 MB bodies');
  });

  it('deep nesting', async () => {
    await sendAll([
      ['100,000 nested arrays', deep(100_000, '[', ']')],
      ['100,000 nested objects', deep(100_000, '{"a":', '}')],
      [
        '5,000 nested objects in a value',
        `{"track_ids":${deep(5_000, '{"a":', '}')},"name":${deep(5_000, '[', ']')}}`,
      ],
    ]);
  });
});

describe('URLs and headers', () => {
  const paths = (): string[] => {
    const uuids = Array.from({ length: 400 }, () => crypto.randomUUID()).join(',');
    return [
      `/rest/v1/tracks?select=${deep(3_000, 'tracks(', ')', 'id')}`,
      `/rest/v1/tracks?select=id&or=(${deep(3_000, 'or(', ')', 'id.eq.1')})`,
      `/rest/v1/tracks?select=id&and=(${deep(3_000, 'and(', ')', 'title.eq.x')})`,
      `/rest/v1/tracks?select=id&id=in.(${uuids})`,
      `/rest/v1/tracks?select=${Array.from({ length: 1500 }, (_, i) => `c${i}:id`).join(',')}`,
      `/rest/v1/tracks?select=id&title=eq.${'x'.repeat(14_000)}`,
      `/rest/v1/tracks?select=id&${'x'.repeat(200_000)}`,
      `/rest/v1/${'t'.repeat(100_000)}`,
      '/rest/v1/tracks?select=id&title=eq.%zz',
      '/rest/v1/tracks?select=id&title=eq.%',
      '/rest/v1/tracks?select=id&title=eq.%00',
      '/rest/v1/tracks?select=id&title=like.%E0%A4%A',
      '/rest/v1/tracks?select=id&limit=-1',
      '/rest/v1/tracks?select=id&limit=1e30&offset=99999999999999999999',
      '/rest/v1/tracks?select=id&order=title.desc.nullsfirst.x,,,',
      '/rest/v1/tracks?select=id&duration=gt.1e400',
      '/rest/v1/tracks?select=id&created_at=gt.294277-01-01',
      '/rest/v1/tracks?select=id&id=eq.not-a-uuid',
      "/rest/v1/tracks?select=id&title=eq.x'%3Bdrop table tracks--",
      '/rest/v1/tracks?select=id::text::int::uuid',
      '/rest/v1/tracks?select=id&title=fts(xx).a&b',
      '/rest/v1/tracks?select=id&title=match.(((((((((((a',
      '/rest/v1/tracks?select=id&title=imatch.' + encodeURIComponent('(a+)+$'),
      '/rest/v1/rpc/recommend_tracks?max_results=99999999999',
      '/storage/v1/object/public/%zz',
      '/storage/v1/object/public/avatars/%',
      `/storage/v1/object/public/avatars/${'a/'.repeat(5000)}x.png`,
      '/auth/v1/verify?token=%00&type=recovery',
      '/auth/v1/verify?token=%zz&type=signup',
      `/auth/v1/authorize?provider=google&redirect_to=${encodeURIComponent('javascript:alert(1)')}`,
      '/functions/v1/%zz',
      '/functions/v1/../../etc/passwd',
      '/%zz',
      `/${'a/'.repeat(3000)}`,
    ];
  };

  it('long, deep and broken URLs', async () => {
    for (const path of paths())
      for (const method of ['GET', 'DELETE']) {
        let x: Exchange;
        try {
          x = await t.request(method, path, { as: user });
        } catch (error) {
          verify(await t.healthy(), `${method} ${path.slice(0, 80)}: ${String(error)}`);
          continue;
        }
        verifyClientError(x, `${method} ${path.slice(0, 120)}`);
      }
    verify(await dbAnswers(), 'the database stopped answering after the URLs');
  });

  it('silly headers', async () => {
    const headerSets: Record<string, string>[] = [
      { Range: '0-99999999999999999999' },
      { Range: 'bytes=0-1' },
      { Range: '-5' },
      {
        Prefer:
          'count=exact,count=planned,return=representation,return=minimal,tx=rollback,handling=strict,missing=default',
      },
      { Prefer: `params=${'x'.repeat(8000)}` },
      { Accept: 'application/vnd.pgrst.object+json' },
      {
        Accept: 'application/vnd.pgrst.plan+json; for="application/json"; options=analyze|verbose',
      },
      { Accept: 'text/csv' },
      { Accept: '*/*;q=abc, application/json;q=-1' },
      { 'Accept-Profile': 'pg_catalog' },
      { 'Content-Profile': 'information_schema' },
      { Authorization: 'Bearer' },
      { Authorization: `Bearer ${'a'.repeat(8000)}` },
      { Authorization: 'Basic YWRtaW46YWRtaW4=' },
      { apikey: 'x'.repeat(8000) },
      { 'Content-Type': 'application/json; charset=utf-16' },
      { 'Content-Type': 'multipart/form-data; boundary=' },
      { 'X-Forwarded-For': '1.2.3.4, '.repeat(500) },
      { 'If-None-Match': '"'.repeat(5000) },
    ];
    for (const headers of headerSets)
      for (const [method, path, body] of [
        ['GET', '/rest/v1/tracks?select=id', undefined],
        ['POST', '/rest/v1/rpc/recommend_tracks', '{}'],
        ['GET', '/storage/v1/object/public/avatars/x.png', undefined],
        ['GET', '/auth/v1/user', undefined],
        ['POST', '/functions/v1/get-recommendations', '{}'],
      ] as const) {
        const x = await t.request(method, path, {
          as: null,
          headers: { apikey: t.keys.anonKey, ...headers },
          body,
        });
        verifyClientError(x, `${method} ${path} with ${JSON.stringify(headers).slice(0, 120)}`);
      }
    for (const method of ['TRACE', 'PROPFIND', 'CONNECTX']) {
      const x = await send(method, `${t.url}/rest/v1/tracks`, {
        headers: { apikey: t.keys.anonKey },
      }).catch(() => null);
      if (x) verifyClientError(x, method);
    }
    verify(await t.healthy(), 'the server stopped answering /healthz');
  });
});

describe('slow partial requests (slowloris)', () => {
  function openSocket(): Promise<Socket> {
    const { hostname, port } = new URL(t.url);
    return new Promise((resolve, reject) => {
      const s = connect({ host: hostname, port: Number(port) }, () => resolve(s));
      s.on('error', reject);
    });
  }

  it('hundreds of half-sent requests do not stop the server or hold the database', async () => {
    const sockets: Socket[] = [];
    const tokenHeader = `Authorization: Bearer ${t.token(user)}\r\napikey: ${t.keys.anonKey}\r\n`;
    try {
      for (let i = 0; i < 150; i++) {
        const s = await openSocket();
        s.on('error', () => {});
        sockets.push(s);
        // Thirds: headers never finished; a JSON body promised but never sent; an upload stalled.
        if (i % 3 === 0) s.write(`GET /rest/v1/tracks?select=id HTTP/1.1\r\nHost: x\r\nX-a: `);
        else if (i % 3 === 1)
          s.write(
            `POST /rest/v1/playlists HTTP/1.1\r\nHost: x\r\n${tokenHeader}Content-Type: application/json\r\nContent-Length: 1000000\r\n\r\n{"name":"`,
          );
        else
          s.write(
            `POST /storage/v1/object/avatars/${user.id}/slow.png HTTP/1.1\r\nHost: x\r\n${tokenHeader}Content-Type: image/png\r\nContent-Length: 2000000\r\n\r\n\x89PNG`,
          );
      }
      // A trickle: a byte on each socket, as slowloris keeps its connections alive.
      for (const s of sockets) s.write('a');
      verify(await t.healthy(), 'the server stopped answering /healthz during the slow requests');
      verify(await dbAnswers(), 'the database stopped answering during the slow requests');
      const write = await t.request('POST', '/rest/v1/playlists', {
        as: user,
        body: JSON.stringify({ name: 'still works', created_by: user.id }),
      });
      verify(write.status === 201, 'a write during the slow requests', write);
    } finally {
      for (const s of sockets) s.destroy();
    }
    verify(await t.healthy(), 'the server stopped answering /healthz after the slow requests');
    verify(await dbAnswers(), 'the database stopped answering after the slow requests');
  });
});
