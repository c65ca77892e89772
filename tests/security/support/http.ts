/**
 * Requests as an outsider sends them, and evidence: every assertion of the suite that fails
 * shows the request it sent and the response it got.
 */

export interface Exchange {
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  requestBody: string | undefined;
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface SendInit {
  headers?: Record<string, string>;
  body?: string | Uint8Array;
}

/** Sends one request with fetch (no retries, no redirects followed) and keeps both sides. */
export async function send(method: string, url: string, init: SendInit = {}): Promise<Exchange> {
  const res = await fetch(url, {
    method,
    headers: init.headers,
    body: init.body as BodyInit | undefined,
    redirect: 'manual',
  });
  const buf = new Uint8Array(await res.arrayBuffer());
  return {
    method,
    url,
    requestHeaders: init.headers ?? {},
    requestBody:
      init.body === undefined
        ? undefined
        : typeof init.body === 'string'
          ? init.body
          : `<${init.body.byteLength} bytes>`,
    status: res.status,
    headers: Object.fromEntries(res.headers.entries()),
    body: new TextDecoder().decode(buf),
  };
}

const clip = (s: string, n = 1500) =>
  s.length > n ? `${s.slice(0, n)}… (${s.length - n} more characters)` : s;

function redact(headers: Record<string, string>): Record<string, string> {
  // Tokens are long and say nothing in a failure message; their claims are in the test name.
  return Object.fromEntries(
    Object.entries(headers).map(([k, v]) => [
      k,
      /^(authorization|apikey)$/i.test(k) && v.length > 40 ? `${v.slice(0, 24)}…` : v,
    ]),
  );
}

/** The request and the response, as a failure message shows them. */
export function evidence(x: Exchange): string {
  return [
    `>>> ${x.method} ${clip(x.url, 600)}`,
    ...Object.entries(redact(x.requestHeaders)).map(([k, v]) => `>>> ${k}: ${clip(v, 200)}`),
    ...(x.requestBody === undefined ? [] : [`>>> ${clip(x.requestBody, 600)}`]),
    `<<< ${x.status}`,
    ...Object.entries(x.headers)
      .filter(([k]) =>
        /^(content-type|content-range|content-disposition|content-security-policy|location|www-authenticate)$/i.test(
          k,
        ),
      )
      .map(([k, v]) => `<<< ${k}: ${v}`),
    `<<< ${clip(x.body)}`,
  ].join('\n');
}

export class AttackSucceeded extends Error {
  override name = 'AttackSucceeded';
}

/** Fails with `what` and the evidence of every exchange given when `ok` is false. */
export function verify(ok: boolean, what: string, ...exchanges: Exchange[]): void {
  if (ok) return;
  throw new AttackSucceeded(
    [what, ...exchanges.map((x, i) => `--- exchange ${i + 1} ---\n${evidence(x)}`)].join('\n'),
  );
}

/** What a server must never put in an answer: its stack traces and its SQL. */
const INTERNALS: [RegExp, string][] = [
  [/\n\s+at\s+\S+\s+\(|\bat (async )?[\w.<>]+ \(\/|node_modules\/|\.ts:\d+:\d+/, 'a stack trace'],
  [
    /\b(select|insert into|update|delete from)\b[\s\S]{0,200}\b(from|where|values|set|returning)\b/i,
    'SQL',
  ],
  [
    /\bsyntax error at or near\b|\bpg_catalog\.|\bPGlite\b|\bwasm-function\b/i,
    'database internals',
  ],
];

/** A client's request, however hostile, is answered with a 4xx or a 2xx, never a 5xx or internals. */
export function verifyClientError(x: Exchange, what: string): void {
  verify(x.status < 500, `${what}: answered ${x.status} (a client's mistake is never a 5xx)`, x);
  for (const [pattern, name] of INTERNALS)
    verify(!pattern.test(x.body), `${what}: the answer shows ${name}`, x);
}

export function json<T = unknown>(x: Exchange): T {
  try {
    return JSON.parse(x.body) as T;
  } catch {
    throw new AttackSucceeded(`expected a JSON answer\n${evidence(x)}`);
  }
}
