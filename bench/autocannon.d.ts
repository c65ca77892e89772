/** The part of autocannon 8's programmatic API that bench/load-worker.ts uses (no @types package). */
declare module 'autocannon' {
  export interface RawRequest {
    method: string;
    path: string;
    headers: Record<string, string>;
    body?: string | Buffer;
  }

  export interface Histogram {
    average: number;
    p50: number;
    p90: number;
    p99: number;
    max: number;
  }

  export interface Options {
    url: string;
    connections?: number;
    duration?: number;
    timeout?: number;
    method?: string;
    headers?: Record<string, string>;
    requests?: { setupRequest?: (request: RawRequest, context: object) => RawRequest }[];
  }

  export interface Result {
    duration: number;
    latency: Histogram;
    requests: Histogram & { total: number };
    '2xx': number;
    non2xx: number;
    errors: number;
    timeouts: number;
    statusCodeStats: Record<string, { count: number }>;
  }

  export interface Instance extends PromiseLike<Result> {
    stop(): void;
  }

  export default function autocannon(options: Options): Instance;
}
