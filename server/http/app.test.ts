import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompress } from '../build/precompress';
import { createApp } from './app';

let dist: string;
let app: ReturnType<typeof createApp>;
const shell = `<!doctype html><html><head><title>Soundloft</title></head><body><div id="root"></div>${'<!-- padding -->'.repeat(100)}</body></html>`;

beforeAll(() => {
  dist = mkdtempSync(join(tmpdir(), 'soundloft-dist-'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), shell);
  writeFileSync(
    join(dist, 'assets', 'index-abc123.js'),
    `console.log(${JSON.stringify('x'.repeat(4000))});`,
  );
  writeFileSync(join(dist, 'sw.js'), 'self.addEventListener("fetch", () => {});');
  mkdirSync(join(dist, 'prerender'));
  writeFileSync(join(dist, 'prerender', 'index.html'), '<h1>Landing, prerendered</h1>');
  writeFileSync(join(dist, 'prerender', 'faq.html'), '<h1>FAQ, prerendered</h1>');
  precompress(dist);
  app = createApp({ distDir: dist });
});
afterAll(() => rmSync(dist, { recursive: true, force: true }));

const get = (path: string, headers: Record<string, string> = {}) => app.request(path, { headers });

describe('static app serving', () => {
  it('serves a prerendered public page where there is one', async () => {
    expect(await (await get('/')).text()).toBe('<h1>Landing, prerendered</h1>');
    const faq = await get('/faq');
    expect(await faq.text()).toBe('<h1>FAQ, prerendered</h1>');
    expect(faq.headers.get('cache-control')).toBe('no-cache');
    // With a query string the page may differ from the prerender: the shell renders it.
    expect(await (await get('/faq?x=1')).text()).toContain('<div id="root">');
  });

  it('serves the shell for other app routes (SPA fallback), never cached', async () => {
    for (const path of ['/home', '/playlist/123', '/artist/Nora%20Vale', '/faq/extra']) {
      const res = await get(path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/html');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(await res.text()).toContain('<div id="root">');
    }
  });

  it('serves hashed assets as immutable, compressed when the client accepts it', async () => {
    const res = await get('/assets/index-abc123.js', { 'accept-encoding': 'gzip, deflate' });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('vary')).toBe('Accept-Encoding');
    const body = gunzipSync(Buffer.from(await res.arrayBuffer())).toString();
    expect(body).toContain('console.log');

    const br = await get('/assets/index-abc123.js', { 'accept-encoding': 'gzip, br' });
    expect(br.headers.get('content-encoding')).toBe('br');
    const plain = await get('/assets/index-abc123.js');
    expect(plain.headers.get('content-encoding')).toBeNull();
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const first = await get('/sw.js');
    const etag = first.headers.get('etag');
    expect(etag).toBeTruthy();
    expect(first.headers.get('cache-control')).toBe('no-cache');
    const second = await get('/sw.js', { 'if-none-match': etag! });
    expect(second.status).toBe(304);
  });

  it('answers 404 for a missing file instead of the shell (stale chunks must fail loudly)', async () => {
    const res = await get('/assets/index-old999.js');
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain('<div id="root">');
  });

  it('never answers API paths with the shell', async () => {
    for (const path of [
      '/rest/v1/tracks',
      '/auth/v1/user',
      '/storage/v1/object/x',
      '/functions/v1/spleeter',
      '/_dev/mail',
    ]) {
      const res = await get(path);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toContain('application/json');
    }
  });

  it('sends security headers', async () => {
    const res = await get('/');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  });

  it('reports health', async () => {
    const res = await get('/healthz');
    expect(await res.json()).toEqual({ ok: true });
  });
});
