/**
 * The storage bench's client, seen from the bench: what one job asks for, what it measures, and a
 * handle on the child process (bench/storage-client.ts) that uploads and reads, so the client
 * never shares an event loop (or a CPU core, when there are two) with the server it measures.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** Sent as `x-bench` with every request, so the server side can group its own timings. */
export type RequestKind =
  'upload-sbjs' | 'upload-raw' | 'verify' | 'warmup' | 'range' | 'plain' | 'download';

export interface ClientJob {
  /** `http://127.0.0.1:port` (loopback only). */
  origin: string;
  anonKey: string;
  /** The user's access token. */
  token: string;
  userId: string;
  /** Size of the WAV, header included. */
  fileBytes: number;
  /** Measured uploads per client (supabase-js, raw fetch), after one warm-up each. */
  uploads: number;
  /** Measured Range requests and plain GETs (alternating), after `warmups` of each. */
  reads: number;
  warmups: number;
  /** Bytes per Range request. */
  rangeBytes: number;
  /** Full downloads of the object. */
  downloads: number;
}

export interface UploadTiming {
  kind: 'upload-sbjs' | 'upload-raw';
  /** Object name in the bucket. */
  name: string;
  /** From the call to the parsed answer, as the client sees it. */
  ms: number;
  warmup: boolean;
}

export interface ReadTiming {
  /** fetch() resolved: status line and headers received. */
  headersMs: number;
  /** The first body chunk received (the body is then cancelled). */
  firstChunkMs: number;
}

export interface ClientResult {
  wavMs: number;
  uploads: UploadTiming[];
  /** The object read back (public URL). */
  readName: string;
  publicUrl: string;
  range: ReadTiming[];
  plain: ReadTiming[];
  /** Bytes of the first chunk of a Range answer (the rest is not read). */
  firstChunkBytes: number[];
  /** Full downloads, ms each. */
  downloads: number[];
}

export type ClientRequest = { id: number; job: ClientJob };
export type ClientReply = { id: number; result?: ClientResult; error?: string };

export interface StorageClient {
  /** Resolves when the child answers; rejects if it exits or stays silent for 30 s. */
  ready: Promise<void>;
  run(job: ClientJob, timeoutMs: number): Promise<ClientResult>;
  /** Kills the child (at any time, even before it is ready). */
  close(): void;
}

/**
 * Starts bench/storage-client.ts as a separate Node process (tsx loader, IPC channel). Returns at
 * once, so the caller can register `close` for cleanup before waiting for `ready`.
 */
export function startStorageClient(): StorageClient {
  const child: ChildProcess = fork(
    fileURLToPath(new URL('./storage-client.ts', import.meta.url)),
    [],
    { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  const pending = new Map<
    number,
    { resolve: (r: ClientResult) => void; reject: (e: Error) => void }
  >();
  let nextId = 0;
  child.on('message', (message: ClientReply) => {
    const p = pending.get(message.id);
    if (!p) return;
    pending.delete(message.id);
    if (message.result) p.resolve(message.result);
    else p.reject(new Error(`storage client: ${message.error ?? 'no result'}`));
  });
  child.on('exit', (code, signal) => {
    for (const p of pending.values())
      p.reject(new Error(`storage client exited (${signal ?? code ?? 'unknown'})`));
    pending.clear();
  });
  const close = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  };
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      close();
      reject(new Error('storage client did not start in 30 s'));
    }, 30_000);
    child.once('message', () => {
      clearTimeout(timer);
      resolve();
    });
    child.once('exit', () => {
      clearTimeout(timer);
      reject(new Error('storage client exited at start'));
    });
  });
  // Marked handled: a caller that stopped waiting (Ctrl-C) must not crash on a late rejection.
  ready.catch(() => undefined);
  return {
    ready,
    run(job, timeoutMs) {
      const id = ++nextId;
      return new Promise<ClientResult>((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          close();
          reject(new Error(`storage client did not finish within ${timeoutMs / 1000} s`));
        }, timeoutMs);
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
        child.send({ id, job } satisfies ClientRequest);
      });
    },
    close,
  };
}
