/** What the search bench's page (harness.ts, browser) answers its runner (search-browser.ts, Node). */
export interface KeystrokeTiming {
  q: string;
  /** Main thread: posting the query. */
  post: number;
  /** Main thread: receiving the answer (reading the message, the channel's handling). */
  receive: number;
  /** From the keystroke to the answer in the page. */
  result: number;
  /** Ranking time inside the worker. */
  worker: number;
  hits: number;
}

export interface TypingTiming {
  text: string;
  /** From the text's last keystroke to its answer in the page. */
  settle: number;
  /** Queries the worker ran for this text (stale keystrokes skipped are not run). */
  ran: number;
  typed: number;
}

export interface SearchBench {
  seed(size: number): Promise<number>;
  start(): Promise<{ ms: number; documents: number; workerMs: number; firstChunkMs: number }>;
  each(texts: string[], limit: number): Promise<KeystrokeTiming[]>;
  typing(texts: string[], gapMs: number, limit: number): Promise<TypingTiming[]>;
}
