/**
 * Hostile input to every edge function's body and every RPC the app calls, table-driven from
 * `expectations/inputs.ts`: each field in turn replaced by a value of the wrong type, null, a
 * huge string, a huge number, an array or an object, and an unknown field added. Every call must
 * be a 4xx with a clear message (JSON, a readable sentence, no internals) and change nothing: a
 * digest of every table of the public schema is compared before and after each function's run.
 * The lists are read from the code: a new function folder or a new `.rpc('…')` in src/ without
 * an entry fails here.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { APP_RPCS, EDGE_FUNCTIONS, type Field, type InputCase } from './expectations/inputs';
import { useAttackWorld, type Caller } from './support/actors';
import { evidence, type Exchange } from './support/http';
import type { Target } from './support/target';
import type { World } from './support/world';

const ROOT = join(import.meta.dirname, '../..');

/** Edge functions: folders of supabase/functions with a handler (not `_shared`). */
function edgeFunctionNames(): string[] {
  const dir = join(ROOT, 'supabase/functions');
  return readdirSync(dir)
    .filter((n) => !n.startsWith('_') && !n.startsWith('.'))
    .filter((n) => statSync(join(dir, n)).isDirectory())
    .filter((n) => readdirSync(join(dir, n)).includes('handler.ts'))
    .sort();
}

/** RPCs the app calls: `.rpc('name'` in src/ (tests left out). */
function appRpcNames(): string[] {
  const names = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
        for (const m of readFileSync(path, 'utf8').matchAll(/\.rpc\(\s*['"`]([a-z0-9_]+)['"`]/g))
          names.add(m[1]!);
      }
    }
  };
  walk(join(ROOT, 'src'));
  return [...names].sort();
}

const huge = (n: number) => 'x'.repeat(n);
const WRONG_SHAPES = [[], {}, true, [1, 2]];

/** Values no field of this kind may accept. */
function hostile(field: Field): unknown[] {
  const optional = field.endsWith('?');
  const kind = field.replace(/\?$/, '');
  const nulls = optional ? [] : [null];
  switch (kind) {
    case 'uuid':
      return [...nulls, 'not-a-uuid', '', huge(5000), 12, ...WRONG_SHAPES];
    case 'enum':
      return [...nulls, 'nonsense', huge(5000), 12, ...WRONG_SHAPES];
    case 'email':
      return [...nulls, `${huge(5000)}@example.test`, huge(100_000), 12, ...WRONG_SHAPES];
    case 'free-text':
      return [...nulls, huge(5000), huge(100_000)];
    case 'int':
      return [...nulls, 'x', 1.5, 2147483648, 1e308, '1e1000', -1, ...WRONG_SHAPES];
    case 'numeric':
      return [...nulls, 'x', 'NaN', 'Infinity', '1e1000', 1e308, -5, huge(5000), ...WRONG_SHAPES];
    case 'date':
      return [...nulls, 'not a date', '99999-01-01', huge(5000), 12, ...WRONG_SHAPES];
    case 'list':
      return [...nulls, 'x', 1, {}, Array.from({ length: 100_000 }, () => ({ id: 'x' }))];
    case 'json':
      return [...nulls, 'x', 1, huge(100_000)];
    default:
      throw new Error(`unknown kind ${kind}`);
  }
}

const short = (v: unknown) => {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 60 ? `${s.slice(0, 40)}… (${s.length} chars)` : s;
};

/** The bodies to send: each field replaced by each hostile value, then an unknown field. */
function attacks(c: InputCase, w: World): { what: string; body: Record<string, unknown> }[] {
  const sane = c.sane(w);
  return [
    ...Object.entries(c.fields).flatMap(([name, field]) =>
      hostile(field).map((v) => ({ what: `${name} = ${short(v)}`, body: { ...sane, [name]: v } })),
    ),
    { what: 'an unknown field', body: { ...sane, surprise: 'x' } },
  ];
}

/** The message of a 4xx: `{error}` of a function, `{message}` of the REST API. */
function messageOf(x: Exchange): string {
  try {
    const body = JSON.parse(x.body) as { error?: unknown; message?: unknown };
    const m = body.error ?? body.message;
    return typeof m === 'string' ? m : '';
  } catch {
    return '';
  }
}

/** A clear message: a sentence a person can read, not a stack, SQL or an internal error. */
function unclear(message: string): string | null {
  if (!message.trim()) return 'no message';
  if (
    /internal|stack|\bat \w+ \(|violates check constraint|syntax error at|relation "/i.test(message)
  )
    return 'a message showing internals';
  return null;
}

let t: Target;
let w: World;
let call: Caller;
const world = useAttackWorld();
beforeAll(() => {
  ({ t, w, call } = world);
});

/**
 * What the digest reads of a table: the whole row, except where the server's own background
 * work changes rows while the calls run. The mail outbox's sender marks rows sent, counts
 * attempts and drops a sent mail's token (server/mail/outbox.ts) for mails earlier tests
 * queued: a hostile call would show as a new row or a changed recipient, subject or body.
 */
const DIGESTED: Record<string, string> = {
  mail_outbox: '(x.id, x.template, x.to_user, x.to_email, x.subject, x.body, x.created_at)',
};

/** A digest of every table of the public schema: rows, and the md5 of their text. */
async function digest(): Promise<Record<string, string>> {
  const { rows: tables } = await t.db.query<{ name: string }>(
    `select c.relname as name from pg_class c
     where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p') order by 1`,
  );
  const sql = tables
    .map(
      ({ name }) =>
        `select '${name}' as name, count(*)::text || ' ' || coalesce(md5(string_agg(${DIGESTED[name] ?? 'x'}::text, ',' order by ${DIGESTED[name] ?? 'x'}::text)), '') as d from public."${name}" x`,
    )
    .join(' union all ');
  const { rows } = await t.db.query<{ name: string; d: string }>(sql);
  return Object.fromEntries(rows.map((r) => [r.name, r.d]));
}

async function run(label: string, path: string, c: InputCase): Promise<string[]> {
  const failures: string[] = [];
  const before = await digest();
  for (const { what, body } of attacks(c, w)) {
    const x = await call(c.as, 'POST', path, {
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', ...c.headers },
    });
    const problem =
      x.status < 400 || x.status >= 500 ? `answered ${x.status}, not a 4xx` : unclear(messageOf(x));
    if (problem) failures.push(`${label} with ${what}: ${problem}\n${evidence(x)}`);
  }
  const after = await digest();
  const changed = Object.keys(before).filter((k) => before[k] !== after[k]);
  if (changed.length) failures.push(`${label}: hostile calls changed ${changed.join(', ')}`);
  return failures;
}

describe('hostile input', () => {
  it('every edge function and every RPC the app calls is in expectations/inputs.ts', () => {
    const functions = edgeFunctionNames();
    const rpcs = appRpcNames();
    expect(
      {
        functions: functions.filter((n) => !(n in EDGE_FUNCTIONS)),
        rpcs: rpcs.filter((n) => !(n in APP_RPCS)),
        gone: [
          ...Object.keys(EDGE_FUNCTIONS).filter((n) => !functions.includes(n)),
          ...Object.keys(APP_RPCS).filter((n) => !rpcs.includes(n)),
        ],
      },
      'declare them in tests/security/expectations/inputs.ts (docs/security.md)',
    ).toEqual({ functions: [], rpcs: [], gone: [] });
  });

  for (const name of Object.keys(EDGE_FUNCTIONS).sort()) {
    it(`edge function ${name}: every hostile body is a 4xx with a clear message and changes nothing`, async () => {
      const failures = await run(name, `/functions/v1/${name}`, EDGE_FUNCTIONS[name]!);
      expect(failures, failures.join('\n\n')).toEqual([]);
    });
  }

  for (const name of Object.keys(APP_RPCS).sort()) {
    it(`rpc ${name}: every hostile argument is a 4xx with a clear message and changes nothing`, async () => {
      const failures = await run(name, `/rest/v1/rpc/${name}`, APP_RPCS[name]!);
      expect(failures, failures.join('\n\n')).toEqual([]);
    });
  }
});
