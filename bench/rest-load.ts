/**
 * The load generator of the REST bench, seen from the bench: what one run asks for, what it
 * measures, and a handle on the child process (bench/load-worker.ts) that runs autocannon, so
 * the load never shares an event loop with the server it measures.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** One kind of request. `{{name}}` in path and body is a variant's value, `{{n}}` a counter. */
export interface LoadVariant {
  /** Index into LoadSpec.tokens: the user the request runs as. */
  token: number;
  vars: Record<string, string>;
}

export interface LoadSpec {
  /** `http://127.0.0.1:port` (loopback only). */
  origin: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  /** Sent with every request; `Authorization: Bearer <token>` is added per variant. */
  headers: Record<string, string>;
  tokens: string[];
  /** Cycled request after request: request n uses variants[n % length]. */
  variants: LoadVariant[];
  /** Makes `{{n}}` unique across runs on one database (warm-up, measure, direct loop). */
  prefix: string;
  connections: number;
  seconds: number;
}

export interface LoadResult {
  /** 2xx responses per second over the run. */
  rps: number;
  p50: number;
  p99: number;
  ok: number;
  /** Non-2xx responses plus connection errors and timeouts. */
  failed: number;
  seconds: number;
  statuses: Record<string, number>;
}

export type WorkerRequest = { id: number; spec: LoadSpec };
export type WorkerReply = { id: number; result?: LoadResult; error?: string };

/** Fills `{{name}}` from vars and `{{n}}` with n. Values are inserted verbatim. */
export function render(template: string, vars: Record<string, string>, n: string): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_, key: string) => {
    if (key === 'n') return n;
    const value = vars[key];
    if (value === undefined) throw new Error(`no value for {{${key}}}`);
    return value;
  });
}

export interface LoadWorker {
  run(spec: LoadSpec): Promise<LoadResult>;
  close(): void;
}

/** Starts bench/load-worker.ts as a separate Node process (tsx loader, IPC channel). */
export async function startLoadWorker(): Promise<LoadWorker> {
  const child: ChildProcess = fork(
    fileURLToPath(new URL('./load-worker.ts', import.meta.url)),
    [],
    {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  let nextId = 0;
  const pending = new Map<
    number,
    { resolve: (r: LoadResult) => void; reject: (e: Error) => void }
  >();
  const failAll = (error: Error) => {
    for (const p of pending.values()) p.reject(error);
    pending.clear();
  };
  child.on('message', (message: WorkerReply) => {
    const p = pending.get(message.id);
    if (!p) return;
    pending.delete(message.id);
    if (message.result) p.resolve(message.result);
    else p.reject(new Error(`load worker: ${message.error ?? 'no result'}`));
  });
  child.on('exit', (code, signal) =>
    failAll(new Error(`load worker exited (${signal ?? code ?? 'unknown'})`)),
  );
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('load worker did not start in 30 s')), 30_000);
    child.once('message', () => {
      clearTimeout(timer);
      resolve();
    });
    child.once('exit', () => {
      clearTimeout(timer);
      reject(new Error('load worker exited at start'));
    });
  });
  const close = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  };
  return {
    run(spec) {
      const id = ++nextId;
      return new Promise<LoadResult>((resolve, reject) => {
        // autocannon ends on its own after spec.seconds; a worker that does not answer is killed.
        const timer = setTimeout(
          () => {
            pending.delete(id);
            close();
            reject(new Error(`load worker did not answer within ${spec.seconds + 20} s`));
          },
          (spec.seconds + 20) * 1000,
        );
        pending.set(id, {
          resolve: (r) => {
            clearTimeout(timer);
            resolve(r);
          },
          reject: (e) => {
            clearTimeout(timer);
            reject(e);
          },
        });
        child.send({ id, spec } satisfies WorkerRequest);
      });
    },
    close,
  };
}
