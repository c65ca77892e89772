/**
 * The load generator of the REST bench, seen from the bench: what one run asks for, what it
 * measures, and a handle on the child process (bench/load-worker.ts) that runs autocannon, so
 * the load never shares an event loop with the server it measures.
 */
import { execFile, execFileSync, fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** One kind of request. `{{name}}` in path and body is a variant's value, `{{n}}` a counter. */
export interface LoadVariant {
  /** Index into LoadSpec.tokens: the user the request runs as. */
  token: number;
  vars: Record<string, string>;
  /** Headers of this variant only (a Range, say), over LoadSpec.headers. */
  headers?: Record<string, string>;
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
  /** CPU time the load generator's process spent on the run, µs. */
  cpuMicros: number;
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
  /** 'wrk' or 'autocannon', for the report. */
  readonly name: string;
  run(spec: LoadSpec): Promise<LoadResult>;
  close(): void;
}

/**
 * The load generator: wrk (C, Debian's `wrk` package) when it is installed, else autocannon in a
 * child Node process. BENCH_LOAD=autocannon forces autocannon. On two cores the generator's own
 * CPU is taken from the server it loads: autocannon spends ≈ 130-210 µs per request (its
 * per-request JS), wrk a fraction of it (docs/rest-api.md#speed); the bench prints it either way.
 */
export async function startLoadGenerator(): Promise<LoadWorker> {
  if (process.env.BENCH_LOAD !== 'autocannon' && wrkPath()) return wrkGenerator();
  return startLoadWorker();
}

function wrkPath(): string | null {
  try {
    return execFileSync('sh', ['-c', 'command -v wrk'], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

/** A Lua string literal: quotes, backslashes and control characters escaped. */
function luaString(value: string): string {
  let out = '"';
  for (const ch of Buffer.from(value, 'utf8')) {
    if (ch === 0x22 || ch === 0x5c) out += `\\${String.fromCharCode(ch)}`;
    else if (ch < 0x20 || ch > 0x7e) out += `\\${ch.toString().padStart(3, '0')}`;
    else out += String.fromCharCode(ch);
  }
  return `${out}"`;
}

/**
 * The wrk script of one run: the variants' requests rendered once (`{{n}}` left in, replaced per
 * request with the run's prefix and a counter, as the autocannon worker does), cycled request
 * after request; `done` prints the figures as one JSON line.
 */
function wrkScript(spec: LoadSpec): string {
  const rows = spec.variants.map((variant) => {
    const headers = {
      ...spec.headers,
      ...variant.headers,
      Authorization: `Bearer ${spec.tokens[variant.token]}`,
    };
    const path = render(spec.path, variant.vars, '{{n}}');
    const body = spec.body === undefined ? undefined : render(spec.body, variant.vars, '{{n}}');
    const headerLua = Object.entries(headers)
      .map(([k, v]) => `[${luaString(k)}] = ${luaString(v)}`)
      .join(', ');
    return `{ path = ${luaString(path)}, body = ${body === undefined ? 'nil' : luaString(body)}, headers = { ${headerLua} } }`;
  });
  return `
local method = ${luaString(spec.method)}
local prefix = ${luaString(spec.prefix)}
local variants = { ${rows.join(',\n  ')} }
local fixed = {}
-- In init, not at the top level: wrk adds the Host header to wrk.headers just before init.
function init(args)
  for i, v in ipairs(variants) do
    if not string.find(v.path, "{{n}}", 1, true) and not (v.body and string.find(v.body, "{{n}}", 1, true)) then
      fixed[i] = wrk.format(method, v.path, v.headers, v.body)
    end
  end
end
local counter = 0
function request()
  local i = counter % #variants + 1
  local n = prefix .. counter
  counter = counter + 1
  if fixed[i] then return fixed[i] end
  local v = variants[i]
  local body = v.body and string.gsub(v.body, "{{n}}", n) or nil
  return wrk.format(method, (string.gsub(v.path, "{{n}}", n)), v.headers, body)
end
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('WRK_RESULT {"requests":%d,"duration":%d,"status":%d,"connect":%d,"read":%d,"write":%d,"timeout":%d,"p50":%d,"p99":%d}\\n',
    summary.requests, summary.duration, e.status, e.connect, e.read, e.write, e.timeout,
    latency:percentile(50), latency:percentile(99)))
end
`;
}

interface WrkSummary {
  requests: number;
  /** µs */
  duration: number;
  status: number;
  connect: number;
  read: number;
  write: number;
  timeout: number;
  /** µs */
  p50: number;
  p99: number;
}

function wrkGenerator(): LoadWorker {
  const dir = mkdtempSync(join(tmpdir(), 'soundloft-wrk-'));
  let runs = 0;
  return {
    name: 'wrk',
    run(spec) {
      const script = join(dir, `run-${runs++}.lua`);
      writeFileSync(script, wrkScript(spec));
      const args = [
        '-t1',
        `-c${spec.connections}`,
        // wrk takes whole seconds.
        `-d${Math.max(1, Math.round(spec.seconds))}s`,
        '--timeout',
        '10s',
        '-s',
        script,
        spec.origin,
      ];
      return new Promise<LoadResult>((resolve, reject) => {
        // `time`-like accounting: wrk's own CPU, from /proc/<pid>/stat just before it exits is
        // racy, so the shell's `times` builtin reports the child's user and system time.
        execFile(
          'bash',
          ['-c', 'wrk "$@" || exit $?; times', 'wrk', ...args],
          { encoding: 'utf8', timeout: (spec.seconds + 20) * 1000 },
          (error, stdout, stderr) => {
            if (error) {
              reject(new Error(`wrk: ${error.message}\n${stderr}`));
              return;
            }
            const line = /WRK_RESULT (\{.*\})/.exec(stdout)?.[1];
            if (!line) {
              reject(new Error(`wrk printed no result:\n${stdout}\n${stderr}`));
              return;
            }
            const w = JSON.parse(line) as WrkSummary;
            const failed = w.status + w.connect + w.read + w.write + w.timeout;
            const ok = w.requests - w.status;
            const seconds = w.duration / 1e6;
            resolve({
              rps: seconds > 0 ? ok / seconds : 0,
              p50: w.p50 / 1000,
              p99: w.p99 / 1000,
              ok,
              failed,
              seconds,
              statuses: w.status > 0 ? { 'not 2xx/3xx': w.status } : {},
              cpuMicros: childTimes(stdout),
            });
          },
        );
      });
    },
    close() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The children's CPU time from bash's `times` output (its second line: the children's user and
 * system time, e.g. `0m0.512s 0m1.020s`), µs.
 */
function childTimes(stdout: string): number {
  const lines = stdout.trim().split('\n');
  const children = lines.at(-1) ?? '';
  let micros = 0;
  for (const m of children.matchAll(/(\d+)m([\d.]+)s/g))
    micros += (Number(m[1]) * 60 + Number(m[2])) * 1e6;
  return micros;
}

/** Starts bench/load-worker.ts as a separate Node process (tsx loader, IPC channel). */
async function startLoadWorker(): Promise<LoadWorker> {
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
    name: 'autocannon',
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
