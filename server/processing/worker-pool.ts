/**
 * A fixed pool of processing worker threads, so that decoding and encoding never block the
 * server's event loop. One upload per worker at a time; a crashed worker is replaced and its
 * upload fails with an error (the job queue retries it).
 */
import type { Worker } from 'node:worker_threads';
import { startTsWorker } from '../lib/ts-worker';
import { AudioRejected } from './inspect';
import type { ProcessedAudio, Stage } from './process-audio';
import type { WorkerMessage, WorkerRequest } from './worker';

interface Task {
  id: number;
  bytes: Uint8Array;
  onStage: (stage: Stage, progress: number | null) => void;
  resolve: (result: ProcessedAudio) => void;
  reject: (error: Error) => void;
}

/** ebur128-wasm imports its .wasm as an ES module (see loudness.ts). */
export const PROCESSING_WORKER_ARGV = [
  '--experimental-wasm-modules',
  '--disable-warning=ExperimentalWarning',
];

export class ProcessingPool {
  private readonly idle: Worker[] = [];
  private readonly busy = new Map<Worker, Task>();
  private readonly waiting: Task[] = [];
  private nextId = 1;
  private closed = false;

  constructor(readonly size: number) {
    for (let i = 0; i < size; i++) this.idle.push(this.spawn());
  }

  private spawn(): Worker {
    const worker = startTsWorker(new URL('./worker.ts', import.meta.url), {
      execArgv: PROCESSING_WORKER_ARGV,
    });
    worker.unref();
    worker.on('message', (message: WorkerMessage) => this.onMessage(worker, message));
    worker.on('error', (error) => this.onExit(worker, error));
    worker.on('exit', (code) =>
      this.onExit(worker, new Error(`processing worker exited (${code})`)),
    );
    return worker;
  }

  private onMessage(worker: Worker, message: WorkerMessage): void {
    const task = this.busy.get(worker);
    if (!task || task.id !== message.id) return;
    if (message.type === 'stage') {
      task.onStage(message.stage as Stage, message.progress);
      return;
    }
    this.busy.delete(worker);
    this.idle.push(worker);
    if (message.type === 'done') task.resolve(message.result);
    else if (message.type === 'rejected') task.reject(new AudioRejected(message.reason));
    else task.reject(new Error(message.error));
    this.pump();
  }

  private onExit(worker: Worker, error: Error): void {
    const task = this.busy.get(worker);
    this.busy.delete(worker);
    const at = this.idle.indexOf(worker);
    if (at >= 0) this.idle.splice(at, 1);
    if (task) task.reject(error);
    if (!this.closed && this.busy.size + this.idle.length < this.size) {
      this.idle.push(this.spawn());
      this.pump();
    }
  }

  private pump(): void {
    while (this.idle.length > 0 && this.waiting.length > 0) {
      const worker = this.idle.pop() as Worker;
      const task = this.waiting.shift() as Task;
      this.busy.set(worker, task);
      worker.ref();
      const request: WorkerRequest = { id: task.id, bytes: task.bytes };
      worker.postMessage(request, [task.bytes.buffer as ArrayBuffer]);
    }
    for (const worker of this.idle) worker.unref();
  }

  /** Processes an upload's bytes (transferred: the caller must not use them afterwards). */
  process(bytes: Uint8Array, onStage: Task['onStage'] = () => undefined): Promise<ProcessedAudio> {
    if (this.closed) return Promise.reject(new Error('processing pool is closed'));
    // Own buffer: transferring a view of a shared or pooled buffer would detach it for others.
    const own =
      bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
        ? bytes
        : bytes.slice();
    return new Promise((resolve, reject) => {
      this.waiting.push({ id: this.nextId++, bytes: own, onStage, resolve, reject });
      this.pump();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const task of this.waiting.splice(0)) task.reject(new Error('processing pool closed'));
    const all = [...this.idle, ...this.busy.keys()];
    this.idle.length = 0;
    await Promise.all(all.map((w) => w.terminate()));
  }
}
