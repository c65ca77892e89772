/**
 * SOUNDLOFT_ROLE as `npm start` reads it (server/main.ts, docs/deploy.md): a bad value stops the
 * start before anything listens; a worker serves only /healthz, /readyz and /metrics on
 * HEALTH_PORT, never the app on PORT, and drains on SIGTERM.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { freePort, sleep, spawnLoggedServer } from './support';

const distDir = mkdtempSync(join(tmpdir(), 'soundloft-worker-dist-'));
const children: ChildProcess[] = [];
const SECRET = 'worker-test-secret-that-is-at-least-32-characters';

afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  rmSync(distDir, { recursive: true, force: true });
});

function run(env: Record<string, string>) {
  const server = spawnLoggedServer({
    DATA_DIR: 'memory',
    DIST_DIR: distDir,
    JWT_SECRET: SECRET,
    ...env,
  });
  children.push(server.child);
  return server;
}

it('an unknown SOUNDLOFT_ROLE stops the start with one clear line, before listening', async () => {
  const port = await freePort();
  const p = run({ SOUNDLOFT_ROLE: 'api', PORT: String(port) });
  expect(await p.exited).toBe(1);
  expect(p.output().trim()).toBe(
    'Soundloft: SOUNDLOFT_ROLE must be one of all, web, worker (default all), got "api"',
  );
}, 60_000);

it('a worker answers the probes and metrics on HEALTH_PORT only, and drains on SIGTERM', async () => {
  const [port, healthPort] = [await freePort(), await freePort()];
  const w = run({
    SOUNDLOFT_ROLE: 'worker',
    PORT: String(port),
    HEALTH_PORT: String(healthPort),
    LOG_FORMAT: 'json',
  });
  const health = `http://127.0.0.1:${healthPort}`;
  let gone = false;
  void w.exited.then(() => (gone = true));
  for (;;) {
    if (gone) throw new Error(`worker exited: ${w.output()}`);
    const r = await fetch(`${health}/readyz`).catch(() => null);
    if (r?.status === 200) break;
    await sleep(200);
  }
  expect(await (await fetch(`${health}/healthz`)).json()).toEqual({ ok: true });
  const metrics = await (await fetch(`${health}/metrics`)).text();
  expect(metrics).toContain('soundloft_jobs{queue="processing",state="queued"} 0');
  expect(metrics).not.toContain('soundloft_realtime_connections');
  expect((await fetch(`${health}/rest/v1/plans`)).status).toBe(404);
  // Nothing on PORT: no app, no API.
  expect(await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => 'refused')).toBe('refused');

  w.child.kill('SIGTERM');
  expect(await w.exited).toBe(0);
  const lines = w
    .output()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  expect(lines.find((l) => String(l.msg).startsWith('worker running'))).toMatchObject({
    level: 'info',
    role: 'worker',
    healthPort,
  });
  expect(lines.find((l) => l.msg === 'request' && l.path === '/readyz')).toMatchObject({
    family: 'ops',
    status: 200,
    method: 'GET',
  });
  expect(lines.at(-1)?.msg).toMatch(/^SIGTERM: drained in \d+\.\d s, exiting$/);
}, 300_000);
