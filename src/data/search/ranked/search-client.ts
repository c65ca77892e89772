/**
 * The page's side of the search worker (docs/search.md, "In a Web Worker"). One worker per
 * page, started on first use (a Vite worker chunk: same origin, so the CSP's `worker-src 'self'`
 * allows it, and the service worker precaches it with the other scripts for offline use).
 * Where no Worker exists (unit tests under happy-dom) the same host runs in-process.
 *
 * Latest keystroke wins: each channel (a search box) has at most one query in the worker. A
 * keystroke while it runs replaces the one waiting, so a burst of typing never queues stale
 * queries, and an answer for an older text is dropped.
 */
import { observe } from '../../db';
import type { Track } from '../../db/models';
import type { FromSearchWorker, ToSearchWorker, WorkerAnswer } from './protocol';

interface Port {
  post(message: ToSearchWorker): void;
}

export interface ChannelAnswer {
  query: string;
  answer: WorkerAnswer;
}

type Receive = (answer: ChannelAnswer) => void;

interface Pending {
  query: string;
  limit: number;
  suggest: boolean;
}

export class SearchClient {
  readonly #port: Port;
  #seq = 0;
  readonly #inFlight = new Map<number, { channel: SearchChannel; query: string }>();
  readonly #listeners = new Set<() => void>();
  #version = 0;
  #personalKey = '';

  constructor(connect: (receive: (message: FromSearchWorker) => void) => Port) {
    this.#port = connect((message) => this.#receive(message));
  }

  /** Bumped whenever the index changed (`useSyncExternalStore`). */
  readonly subscribe = (listener: () => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };
  readonly getVersion = () => this.#version;

  channel(receive: Receive): SearchChannel {
    return new SearchChannel(this, receive);
  }

  setPersonal(likedTrackIds: readonly string[], followedIds: readonly string[]) {
    const key = `${likedTrackIds.join(',')}|${followedIds.join(',')}`;
    if (key === this.#personalKey) return;
    this.#personalKey = key;
    this.#port.post({
      type: 'personal',
      likedTrackIds: [...likedTrackIds],
      followedIds: [...followedIds],
    });
  }

  addTracks(tracks: Track[]) {
    if (tracks.length > 0) this.#port.post({ type: 'addTracks', tracks });
  }

  /** @internal */
  send(channel: SearchChannel, { query, limit, suggest }: Pending): void {
    const seq = ++this.#seq;
    this.#inFlight.set(seq, { channel, query });
    this.#port.post({ type: 'search', seq, query, limit, suggest });
  }

  #receive(message: FromSearchWorker) {
    if (message.type === 'indexed') {
      this.#version = message.version;
      for (const listener of this.#listeners) listener();
      return;
    }
    const flight = this.#inFlight.get(message.seq);
    if (!flight) return;
    this.#inFlight.delete(message.seq);
    flight.channel.settled({ query: flight.query, answer: message.answer });
  }
}

/** One search box's queries: at most one in the worker, the latest waiting. */
export class SearchChannel {
  #busy = false;
  #waiting: Pending | null = null;
  #wanted = '';
  #closed = false;

  constructor(
    private readonly client: SearchClient,
    private readonly receive: Receive,
  ) {}

  /** `suggest`: also look for a "Did you mean …?" correction (/explore; not the dropdown). */
  search(query: string, limit: number, suggest = false) {
    this.#wanted = query;
    if (this.#busy) {
      this.#waiting = { query, limit, suggest };
      return;
    }
    this.#busy = true;
    this.client.send(this, { query, limit, suggest });
  }

  /** @internal An answer arrived: deliver it unless a newer text is waiting, then send that. */
  settled(answer: ChannelAnswer) {
    this.#busy = false;
    const next = this.#waiting;
    this.#waiting = null;
    if (next) this.search(next.query, next.limit, next.suggest);
    if (!this.#closed && answer.query === this.#wanted) this.receive(answer);
  }

  /** Answers are delivered while open (a component's effect opens and closes it). */
  open() {
    this.#closed = false;
  }

  close() {
    this.#closed = true;
  }
}

/** The search worker (its chunk is built by Vite from this `new URL`). */
export function createSearchWorker(): Worker {
  return new Worker(new URL('./search.worker.ts', import.meta.url), {
    type: 'module',
    name: 'search',
  });
}

function connectWorker(receive: (message: FromSearchWorker) => void): Port {
  const worker = createSearchWorker();
  worker.onmessage = (event: MessageEvent<FromSearchWorker>) => receive(event.data);
  worker.onerror = (event) => console.warn('Search worker failed', event.message);
  return { post: (message) => worker.postMessage(message) };
}

/** No Worker (unit tests): the host in this thread, answering asynchronously like the worker. */
function connectInProcess(receive: (message: FromSearchWorker) => void): Port {
  const ready = import('./search-host').then(({ SearchHost }) => {
    const host = new SearchHost((message) => queueMicrotask(() => receive(message)));
    void import('./mirror-sources').then(({ readMirrorSources, readQuickStart }) => {
      observe(readMirrorSources, (sources) => void host.setSources(sources));
      void readQuickStart().then((tracks) => host.quickStart(tracks));
    });
    return host;
  });
  return { post: (message) => void ready.then((host) => host.handle(message)) };
}

let client: SearchClient | null = null;

/** The page's search client (the worker starts on first use). */
export function getSearchClient(): SearchClient {
  client ??= new SearchClient(typeof Worker === 'undefined' ? connectInProcess : connectWorker);
  return client;
}
