/** Helpers of the server fault tests (restart-under-load, drain). */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A loopback port free right now (the server started next binds it). */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/**
 * `server/main.ts` as `npm start` runs it, on loopback without the build, the demo seed and the
 * job workers; `env` adds PORT, DATA_DIR, DIST_DIR, JWT_SECRET and the rest.
 */
export function spawnServer(env: Record<string, string>, stdout: 'pipe' | 'ignore'): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    stdio: ['ignore', stdout, 'pipe'],
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      SKIP_BUILD: '1',
      SEED: 'none',
      PROCESSING_WORKERS: '0',
      STEMS_WORKERS: '0',
      ...env,
    },
  });
}

/** A spawned server whose stdout and stderr are kept as one text, and its exit code. */
export interface LoggedServer {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** spawnServer with its output collected (the drain and worker tests read what it logged). */
export function spawnLoggedServer(env: Record<string, string>): LoggedServer {
  const child = spawnServer(env, 'pipe');
  let output = '';
  child.stdout?.on('data', (c: Buffer) => (output += String(c)));
  child.stderr?.on('data', (c: Buffer) => (output += String(c)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { child, output: () => output, exited };
}
