/**
 * Multi-node tests: a node of the cluster in a process of its own (`node --import tsx <script>`),
 * so that a test can kill it as an operator or a crash would (SIGKILL: no cleanup of any kind).
 * The script prints one JSON line when ready; `start` resolves to it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface NodeProcess<T> {
  ready: T;
  /** Lines it printed after the ready line. */
  readonly lines: string[];
  /** Kills it (SIGKILL by default) and resolves once it has exited. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export async function startNodeProcess<T>(
  script: string,
  env: NodeJS.ProcessEnv,
): Promise<NodeProcess<T>> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => (stderr += String(c)));
  const lines: string[] = [];
  const ready = await new Promise<T>((resolve, reject) => {
    let out = '';
    let first = true;
    child.stdout?.on('data', (c: Buffer) => {
      out += String(c);
      for (let newline = out.indexOf('\n'); newline >= 0; newline = out.indexOf('\n')) {
        const line = out.slice(0, newline);
        out = out.slice(newline + 1);
        if (first) resolve(JSON.parse(line) as T);
        else lines.push(line);
        first = false;
      }
    });
    child.once('exit', (code) => reject(new Error(`${script} exited ${code}: ${stderr}`)));
  });
  return {
    ready,
    lines,
    async kill(signal = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

/** Polls `check` until it holds (the test's own timeout bounds it). */
export async function waitUntil(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 50));
}

/** A gate a test opens: what a stalled worker waits on. */
export function gate<T = void>(): { open: (value: T) => void; opened: Promise<T> } {
  let open!: (value: T) => void;
  const opened = new Promise<T>((resolve) => (open = resolve));
  return { open, opened };
}
