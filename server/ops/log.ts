/**
 * The server's log (docs/deploy.md#logs). `LOG_FORMAT=json` writes one JSON object per line
 * with pino: the server's own messages and one line per HTTP request (time, level, reqId,
 * method, family, path without its query, status, ms). `LOG_FORMAT=text` keeps `npm start`'s
 * readable lines (`Soundloft: ...`) and writes a request line only for 5xx answers. Default:
 * json when NODE_ENV=production, else text.
 */
import { writeSync } from 'node:fs';
import { pino, stdTimeFunctions, type DestinationStream } from 'pino';
import type { RouteFamily } from './metrics';

export type LogFormat = 'json' | 'text';

export function parseLogFormat(env: NodeJS.ProcessEnv = process.env): LogFormat {
  const value = env.LOG_FORMAT?.trim();
  if (!value) return env.NODE_ENV === 'production' ? 'json' : 'text';
  if (value === 'json' || value === 'text') return value;
  throw new Error(`LOG_FORMAT must be json or text, got "${env.LOG_FORMAT}"`);
}

export interface RequestLine {
  reqId: string;
  method: string;
  family: RouteFamily;
  /** The path without its query string (signed URLs carry tokens there). */
  path: string;
  status: number;
  ms: number;
}

export type Fields = Record<string, unknown>;

export interface Logger {
  readonly format: LogFormat;
  info(message: string, fields?: Fields): void;
  warn(message: string, fields?: Fields): void;
  error(message: string, fields?: Fields): void;
  request(line: RequestLine): void;
}

/**
 * Lines written to `fd` once per turn of the event loop rather than one write(2) per line: under
 * load many answers end in one turn, and the system call was most of a line's cost (bench ops).
 * Whatever is pending is written when the process exits; a SIGKILL loses at most one turn's lines.
 * pino's own asynchronous destination (sonic-boom with `minLength`) measured slower per line.
 */
export function batchedDestination(fd: number): DestinationStream & { flush(): void } {
  let pending: string[] = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (pending.length === 0) return;
    const text = pending.join('');
    pending = [];
    try {
      writeSync(fd, text);
    } catch {
      // A closed stdout (EPIPE) must not take the server down.
    }
  };
  process.once('exit', flush);
  return {
    write(line: string) {
      pending.push(line);
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
    flush,
  };
}

/** `destination`: where json lines go (default stdout, batched); text goes to the console. */
export function createLogger(format: LogFormat, destination?: DestinationStream): Logger {
  if (format === 'text') {
    const line = (message: string, fields?: Fields) =>
      `Soundloft: ${message}${fields && Object.keys(fields).length ? ` ${JSON.stringify(fields)}` : ''}`;
    return {
      format,
      info: (m, f) => console.log(line(m, f)),
      warn: (m, f) => console.error(line(m, f)),
      error: (m, f) => console.error(line(m, f)),
      request(r) {
        if (r.status >= 500)
          console.error(`Soundloft: ${r.status} ${r.method} ${r.path} ${r.ms} ms (${r.reqId})`);
      },
    };
  }
  const log = pino(
    {
      base: undefined,
      timestamp: stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination ?? batchedDestination(1),
  );
  return {
    format,
    info: (m, f) => log.info(f ?? {}, m),
    warn: (m, f) => log.warn(f ?? {}, m),
    error: (m, f) => log.error(f ?? {}, m),
    request(r) {
      (r.status >= 500 ? log.error : log.info).call(log, r, 'request');
    },
  };
}
