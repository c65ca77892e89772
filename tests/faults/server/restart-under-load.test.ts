/**
 * `npm run test:faults` (docs/faults.md): the server (`server/main.ts`, what `npm start` runs) on
 * PGlite persisted in a DATA_DIR, killed with SIGKILL while writers are sending writes, then
 * started again on the same DATA_DIR, twice. Every write that got a 2xx must be there afterwards.
 * The writes: playlists inserted through REST (client ids, `return=minimal`) and playlists
 * created through the outbox's `apply_mutations`, from several writers at once.
 */
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { freePort, sleep, spawnServer } from './support';
import { loadKeys, userToken } from '../../../server/keys/keys';

const WRITERS = 4;
const KILLS = Number(process.env.FAULTS_KILLS ?? 2);
const SECRET = 'faults-test-secret-that-is-at-least-32-characters';
const keys = loadKeys({ JWT_SECRET: SECRET }, () => undefined);
const dataDir = mkdtempSync(join(tmpdir(), 'soundloft-restart-'));
const distDir = mkdtempSync(join(tmpdir(), 'soundloft-restart-dist-'));
let server: ChildProcess | null = null;

afterAll(() => {
  server?.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(distDir, { recursive: true, force: true });
});

/** `npm start` without the build, the seed and the job workers, on DATA_DIR; resolves when up. */
async function start(port: number): Promise<ChildProcess> {
  const child = spawnServer(
    { PORT: String(port), DATA_DIR: dataDir, DIST_DIR: distDir, JWT_SECRET: SECRET },
    'ignore',
  );
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => (stderr += String(c)));
  let exited = false;
  child.once('exit', () => (exited = true));
  for (;;) {
    if (exited) throw new Error(`server exited before it was up: ${stderr}`);
    const up = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return child;
    await sleep(200);
  }
}

async function kill9(child: ChildProcess) {
  const gone = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await gone;
}

it('every acknowledged write survives SIGKILL and a restart on the same PGlite DATA_DIR', async () => {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  server = await start(port);

  const created = await fetch(`${base}/auth/v1/admin/users`, {
    method: 'POST',
    headers: {
      apikey: keys.serviceRoleKey,
      Authorization: `Bearer ${keys.serviceRoleKey}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ email: `writer-${randomUUID()}@example.com`, email_confirm: true }),
  });
  expect(created.status).toBe(200);
  const userId = ((await created.json()) as { id: string }).id;
  const headers = {
    apikey: keys.anonKey,
    Authorization: `Bearer ${userToken(userId, SECRET, 3600)}`,
    'content-type': 'application/json',
  };

  const acknowledged = new Set<string>();
  const tried = new Set<string>();
  let failures = 0;
  let stop = false;
  const writer = async (w: number) => {
    for (let i = 0; !stop; i++) {
      const id = randomUUID();
      tried.add(id);
      const viaOutbox = (i + w) % 2 === 0;
      const request = viaOutbox
        ? fetch(`${base}/rest/v1/rpc/apply_mutations`, {
            method: 'POST',
            headers,
            body: JSON.stringify({
              p_client_id: `writer-${w}`,
              p_mutations: [
                {
                  id: randomUUID(),
                  op: 'playlist.create',
                  user_id: userId,
                  args: { id, name: `o${i}` },
                },
              ],
            }),
          })
        : fetch(`${base}/rest/v1/playlists`, {
            method: 'POST',
            headers: { ...headers, Prefer: 'return=minimal' },
            body: JSON.stringify({ id, name: `r${i}`, created_by: userId }),
          });
      const ok = await request.then(
        async (r) => {
          const body = await r.text();
          // apply_mutations answers 200 with a per-mutation outcome: only 'applied' counts.
          return r.ok && (!viaOutbox || body.includes('"applied"'));
        },
        () => false,
      );
      if (ok) acknowledged.add(id);
      else {
        failures += 1;
        await sleep(50);
      }
    }
  };
  const writers = Array.from({ length: WRITERS }, (_, w) => writer(w));

  const restarts: number[] = [];
  for (let k = 0; k < KILLS; k++) {
    // Under load: kill once at least 100 more writes were acknowledged since the last start.
    const before = acknowledged.size;
    while (acknowledged.size < before + 100) await sleep(20);
    await kill9(server);
    const down = Date.now();
    server = await start(port);
    restarts.push(Date.now() - down);
  }
  const after = acknowledged.size;
  while (acknowledged.size < after + 50) await sleep(20);
  stop = true;
  await Promise.all(writers);

  const service = {
    apikey: keys.serviceRoleKey,
    Authorization: `Bearer ${keys.serviceRoleKey}`,
  };
  const res = await fetch(`${base}/rest/v1/playlists?select=id&created_by=eq.${userId}`, {
    headers: service,
  });
  expect(res.status).toBe(200);
  const found = new Set(((await res.json()) as { id: string }[]).map((r) => r.id));
  const lost = [...acknowledged].filter((id) => !found.has(id));
  const unacknowledgedButKept = [...found].filter((id) => !acknowledged.has(id)).length;
  const strangers = [...found].filter((id) => !tried.has(id)).length;
  console.log(
    [
      `restart under load (PGlite in DATA_DIR, ${WRITERS} writers, ${KILLS} × SIGKILL):`,
      `  writes tried ${tried.size}; acknowledged ${acknowledged.size}; found ${[...acknowledged].filter((id) => found.has(id)).length}; lost ${lost.length}`,
      `  failed or unanswered ${failures} (${unacknowledgedButKept} of them committed anyway: killed before the answer)`,
      `  restart to healthy: ${restarts.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(', ')}`,
    ].join('\n'),
  );
  expect(lost).toEqual([]);
  expect(strangers).toBe(0);
  await kill9(server);
  server = null;
}, 600_000);
