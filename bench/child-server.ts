/**
 * A bench's server in its own Node process (`node --import tsx <script>`), so it never shares an
 * event loop with the clients measuring it. The script prints one JSON line when ready; that
 * line is what this resolves to; later lines go to `onLine`, if given. Stopped (SIGTERM) by
 * `cleanup`.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Cleanup } from './cleanup';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

export async function startChildServer<T>(
  script: string,
  env: NodeJS.ProcessEnv,
  cleanup: Cleanup,
  label: string,
  onLine?: (line: string) => void,
): Promise<T> {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  cleanup.add(`stop the ${label}`, async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += String(c)));
  return new Promise<T>((resolve, reject) => {
    let out = '';
    let first = true;
    child.stdout.on('data', (c: Buffer) => {
      out += String(c);
      for (let newline = out.indexOf('\n'); newline >= 0; newline = out.indexOf('\n')) {
        const line = out.slice(0, newline);
        out = out.slice(newline + 1);
        if (first) resolve(JSON.parse(line) as T);
        else onLine?.(line);
        first = false;
      }
    });
    child.once('exit', (code) => reject(new Error(`${label} exited ${code}: ${stderr}`)));
  });
}
