/**
 * The browser half of `npm run bench -- search` (bench/search-browser.ts): the app's search
 * worker (the same `search.worker.ts` chunk) over a mirror of generated tracks in IndexedDB.
 * The page times what a keystroke costs its main thread (posting the query, then receiving the
 * answer) and how long the answer takes to arrive.
 */
import { getDb } from '../../src/data/db';
import { createSearchWorker, SearchClient } from '../../src/data/search/ranked/search-client';
import type { FromSearchWorker } from '../../src/data/search/ranked/protocol';
import { benchTracks } from '../search-tracks';
import type { KeystrokeTiming, SearchBench, TypingTiming } from './types';

let client: SearchClient | null = null;
let worker: Worker | null = null;
let lastReceive = 0;
let lastWorkerMs = 0;
/** Answers the worker sent (stale ones included). */
let workerAnswers = 0;
let indexed: (m: FromSearchWorker & { type: 'indexed' }) => void = () => undefined;

const bench: SearchBench = {
  /** Writes `size` tracks to the mirror (IndexedDB), in chunks. */
  async seed(size: number) {
    const t0 = performance.now();
    const db = getDb();
    await db.tracks.clear();
    const tracks = benchTracks(size);
    for (let i = 0; i < tracks.length; i += 5000)
      await db.tracks.bulkPut(tracks.slice(i, i + 5000));
    return performance.now() - t0;
  },

  /** Starts the worker; resolves when it has read the mirror and built its index. */
  start() {
    const t0 = performance.now();
    let firstChunkMs = 0;
    return new Promise<{ ms: number; documents: number; workerMs: number; firstChunkMs: number }>(
      (resolve) => {
        indexed = (m) => {
          // The quick start (the newest tracks) and the first chunks answer while the rest is indexed.
          firstChunkMs ||= performance.now() - t0;
          if (m.ready)
            resolve({
              ms: performance.now() - t0,
              documents: m.documents,
              workerMs: m.ms,
              firstChunkMs,
            });
        };
        client = new SearchClient((receive) => {
          worker = createSearchWorker();
          worker.onmessage = (event: MessageEvent<FromSearchWorker>) => {
            const r0 = performance.now();
            const message = event.data; // deserialised here, on first access
            if (message.type === 'indexed') indexed(message);
            if (message.type === 'answer') {
              lastWorkerMs = message.ms;
              workerAnswers++;
            }
            receive(message);
            lastReceive = performance.now() - r0;
          };
          worker.onerror = (event) => console.error('search worker failed', event.message);
          return { post: (message) => worker?.postMessage(message) };
        });
      },
    );
  },

  /** Each keystroke's text, one at a time: the answer arrives before the next is typed. */
  async each(texts: string[], limit: number): Promise<KeystrokeTiming[]> {
    const out: KeystrokeTiming[] = [];
    for (const q of texts) {
      await new Promise<void>((resolve) => {
        let t0 = 0;
        let post = 0;
        const channel = (client as SearchClient).channel((answer) => {
          const result = performance.now() - t0;
          // The receive time is complete once the channel's callback has returned.
          queueMicrotask(() => {
            out.push({
              q,
              post,
              receive: lastReceive,
              result,
              worker: lastWorkerMs,
              hits: answer.answer?.hits.length ?? 0,
            });
            channel.close();
            resolve();
          });
        });
        t0 = performance.now();
        channel.search(q, limit);
        post = performance.now() - t0;
      });
    }
    return out;
  },

  /**
   * Typing: each text's keystrokes `gapMs` apart through one channel (latest keystroke wins).
   * Per text: ms from its last keystroke to its answer, and how many queries the worker ran.
   */
  async typing(texts: string[], gapMs: number, limit: number) {
    const out: TypingTiming[] = [];
    for (const text of texts) {
      const keys = Array.from({ length: text.length }, (_, i) => text.slice(0, i + 1));
      const before = workerAnswers;
      let lastKey = 0;
      const done = new Promise<number>((resolve) => {
        const channel = (client as SearchClient).channel((a) => {
          if (a.query === text) {
            channel.close();
            resolve(performance.now() - lastKey);
          }
        });
        void (async () => {
          for (const k of keys) {
            lastKey = performance.now();
            channel.search(k, limit);
            await new Promise((r) => setTimeout(r, gapMs));
          }
        })();
      });
      const settle = await done;
      out.push({ text, settle, ran: workerAnswers - before, typed: keys.length });
    }
    return out;
  },
};

(window as unknown as { searchBench: SearchBench }).searchBench = bench;
document.title = 'ready';
