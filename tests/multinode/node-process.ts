/**
 * A Soundloft node in its own process, as `npm start` runs it (`tsx server/main.ts`, no build,
 * no seed), on loopback: for the multi-node test (tests/multinode) and `npm run bench -- scale`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort, sleep } from '../faults/server/support';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface NodeProcess {
  name: string;
  child: ChildProcess;
  /** `http://127.0.0.1:<port>`: the API of a web node, the health port of a worker. */
  url: string;
  output: () => string;
}

/**
 * Starts `server/main.ts` with `role` and `env` (DATABASE_URL, DATA_DIR, JWT_SECRET, S3_*, …);
 * resolves once its /readyz answers 200 (a worker's on HEALTH_PORT), rejects if it exits first
 * or is not ready within `timeoutMs`.
 */
export async function startNodeProcess(
  name: string,
  role: 'web' | 'worker',
  env: Record<string, string>,
  timeoutMs = 90_000,
): Promise<NodeProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      SKIP_BUILD: '1',
      SEED: 'none',
      STEMS_WORKERS: '0',
      PROCESSING_WORKERS: role === 'worker' ? '1' : '0',
      ...env,
      SOUNDLOFT_ROLE: role,
      ...(role === 'web' ? { PORT: String(port) } : { HEALTH_PORT: String(port) }),
    },
  });
  let output = '';
  child.stdout?.on('data', (c: Buffer) => (output += String(c)));
  child.stderr?.on('data', (c: Buffer) => (output += String(c)));
  const node = { name, child, url: `http://127.0.0.1:${port}`, output: () => output };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`${name} exited before it was ready:\n${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${name} not ready in ${timeoutMs} ms:\n${output}`);
    }
    const ready = await fetch(`${node.url}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return node;
    await sleep(200);
  }
}

/** Kills the node with `signal` (default SIGKILL) and resolves once it has exited. */
export function stopNodeProcess(
  node: NodeProcess,
  signal: NodeJS.Signals = 'SIGKILL',
): Promise<void> {
  if (node.child.exitCode !== null || node.child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    node.child.once('exit', () => resolve());
    node.child.kill(signal);
  });
}
