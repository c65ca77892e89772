/**
 * Every security definer function (pg_proc), called over /rest/v1/rpc as anon and as another
 * user, with its arguments replaced one at a time by hostile values (negative, huge, NaN,
 * infinity, another user's ids, wrong JSON types, long strings, NUL). None may answer 5xx or
 * show internals, and none may change anything of the owner's: the owner's rows are compared
 * before and after, table by table.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { FUNCTIONS, type Access } from './expectations/functions';
import { useAttackWorld, type Caller } from './support/actors';
import { verify, verifyClientError, type Exchange } from './support/http';
import type { Target } from './support/target';
import type { World } from './support/world';

let t: Target;
let w: World;
let call: Caller;

interface Fn {
  name: string;
  trigger: boolean;
  args: { name: string; type: string }[];
}
let fns: Fn[] = [];

const world = useAttackWorld();
beforeAll(async () => {
  ({ t, w, call } = world);
  // The other user has money of their own to try to withdraw strangely.
  await t.db.query(`select public.post_ledger_entry($1, 20, 'play', $2, $3)`, [
    w.other.id,
    w.trackX,
    w.owner.id,
  ]);
  const { rows } = await t.db.query<{
    name: string;
    trigger: boolean;
    names: string[] | null;
    types: string[];
  }>(
    `select p.proname as name, p.prorettype = 'trigger'::regtype as trigger,
            p.proargnames as names,
            array(select format_type(t, null) from unnest(p.proargtypes) t) as types
     from pg_proc p where p.pronamespace = 'public'::regnamespace and p.prosecdef order by 1`,
  );
  fns = rows.map((r) => ({
    name: r.name,
    trigger: r.trigger,
    args: r.types.map((type, i) => ({ name: r.names?.[i] ?? `$${i + 1}`, type })),
  }));
});

const many = (n: number, f: (i: number) => unknown) => Array.from({ length: n }, (_, i) => f(i));
let nesting = '0';
for (let i = 0; i < 1000; i++) nesting = `{"a":${nesting}}`;

/** Hostile values by argument type; `undefined` entries are skipped. */
function hostile(type: string): unknown[] {
  const wrongShapes = [{}, [], true, null];
  switch (type) {
    case 'uuid':
      return [
        w.owner.id,
        w.trackO,
        w.playlistO,
        w.withdrawalO,
        crypto.randomUUID(),
        'not-a-uuid',
        '',
        ...wrongShapes,
      ];
    case 'integer':
    case 'bigint':
    case 'smallint':
      return [
        -1,
        0,
        2147483647,
        2147483648,
        '9223372036854775808',
        -1e308,
        1e308,
        'NaN',
        'Infinity',
        1.5,
        '1; select 1',
        ...wrongShapes,
      ];
    case 'numeric':
      return [
        -5,
        0,
        4.999,
        0.00001,
        1e20,
        '1e1000',
        'NaN',
        'Infinity',
        '-Infinity',
        ...wrongShapes,
      ];
    case 'real':
    case 'double precision':
      return ['NaN', 'Infinity', -1, 1e39, ...wrongShapes];
    case 'text':
      return [
        '',
        'x'.repeat(100_000),
        "'); drop table public.tracks; --",
        'a\u0000b',
        '../../etc/passwd',
        w.owner.id,
        ...wrongShapes,
      ];
    case 'timestamp with time zone':
      return [
        'infinity',
        '-infinity',
        '294276-12-31T00:00:00Z',
        '4713-01-01 BC',
        'NaN',
        'not a date',
        '1970-01-01T00:00:00Z',
        '2999-01-01T00:00:00Z',
        ...wrongShapes,
      ];
    case 'boolean':
      return ['maybe', 2, ...wrongShapes];
    case 'uuid[]':
      return [
        many(5000, () => crypto.randomUUID()),
        ['not-a-uuid'],
        [null],
        [w.trackO, w.trackO],
        'x',
        {},
      ];
    case 'text[]':
      return [many(5000, () => 'x'.repeat(100)), [null], ['x'.repeat(100_000)], 'x', {}];
    case 'jsonb':
    case 'json':
      return [JSON.parse(nesting), many(10000, (i) => ({ i })), 'x', 1];
    default:
      return [...wrongShapes, 'x'];
  }
}

/** A sane value: the owner's resources (so a hostile caller aims at someone else's). */
function sane(arg: { name: string; type: string }): unknown {
  if (arg.type === 'uuid') {
    if (/playlist/.test(arg.name)) return w.playlistO;
    if (/withdrawal/.test(arg.name)) return w.withdrawalO;
    if (/track/.test(arg.name)) return w.trackO;
    return w.owner.id;
  }
  if (/int|numeric|real|double/.test(arg.type)) return /amount/.test(arg.name) ? 5 : 10;
  if (arg.type === 'text') {
    if (arg.name === 'method') return 'paypal';
    if (arg.name === 'status') return 'completed';
    if (arg.name === 'action') return 'take_down';
    return 'x@example.test';
  }
  if (arg.type.startsWith('timestamp')) return new Date().toISOString();
  if (arg.type.endsWith('[]')) return [];
  if (arg.type === 'boolean') return true;
  return null;
}

/** The owner's world, part by part: what no call of another user's may change. */
async function ownerState(): Promise<Record<string, string>> {
  const parts: Record<string, string> = {
    profile: `select to_jsonb(p) - 'updated_at' from public.profiles p where id = $1`,
    tracks: `select jsonb_agg(to_jsonb(t) - 'updated_at' order by id) from public.tracks t where uploaded_by = $1`,
    playlists: `select jsonb_agg(to_jsonb(x) - 'updated_at' order by id) from public.playlists x where created_by = $1`,
    ledger: `select jsonb_agg(to_jsonb(x) order by id) from public.earnings_ledger x where user_id = $1`,
    withdrawals: `select jsonb_agg(to_jsonb(x) - 'updated_at' order by id) from public.withdrawals x where user_id = $1`,
    lyrics: `select jsonb_agg(to_jsonb(l) - 'updated_at' order by track_id) from public.track_lyrics l join public.tracks t on t.id = l.track_id where t.uploaded_by = $1`,
    follows: `select jsonb_agg(to_jsonb(f) order by follower_id, following_id) from public.followers f where $1 in (follower_id, following_id)`,
    likes: `select jsonb_agg(to_jsonb(x) order by id) from public.liked_tracks x where user_id = $1`,
    history: `select jsonb_agg(to_jsonb(x) order by id) from public.listening_history x where user_id = $1`,
    plays: `select jsonb_agg(to_jsonb(x) order by id) from public.play_events x where listener_id = $1`,
    downloads: `select jsonb_agg(to_jsonb(x) order by track_id) from public.track_downloads x where user_id = $1`,
    reports: `select jsonb_agg(to_jsonb(x) - 'updated_at' order by id) from public.track_reports x where reporter_id = $1 or track_id in (select id from public.tracks where uploaded_by = $1)`,
    admins: `select jsonb_agg(to_jsonb(x) order by user_id) from public.admins x where $1::uuid is not null`,
    admin_emails: `select jsonb_agg(email order by email) from public.admin_emails where $1::uuid is not null`,
    subscriptions: `select jsonb_agg(to_jsonb(x) - 'updated_at' order by id) from public.subscriptions x where user_id = $1`,
  };
  const out: Record<string, string> = {};
  for (const [k, sql] of Object.entries(parts)) {
    const { rows } = await t.db.query<Record<string, unknown>>(sql, [w.owner.id]);
    out[k] = JSON.stringify(Object.values(rows[0] ?? {})[0] ?? null);
  }
  return out;
}

const refused = (x: Exchange) => x.status === 401 || x.status === 403;

describe('security definer functions', () => {
  it('are all declared in tests/security/expectations/functions.ts (pg_proc)', () => {
    const names = fns.map((f) => f.name);
    const missing = names.filter((n) => !(n in FUNCTIONS));
    const gone = Object.keys(FUNCTIONS).filter((n) => !names.includes(n));
    const triggers = fns
      .filter((f) => f.trigger !== (FUNCTIONS[f.name]?.anon === 'trigger'))
      .map((f) => `${f.name} (${f.trigger ? 'is' : 'is not'} a trigger function)`);
    expect({ missing, gone, triggers }, 'declare them (docs/security.md)').toEqual({
      missing: [],
      gone: [],
      triggers: [],
    });
  });

  it('answer anon and another user as declared, with hostile arguments, and change nothing of the owner’s', async () => {
    const failures: string[] = [];
    let calls = 0;
    for (const fn of fns) {
      const expected = FUNCTIONS[fn.name];
      if (!expected) continue;
      const base = Object.fromEntries(fn.args.map((a) => [a.name, sane(a)]));
      const bodies = [
        base,
        ...fn.args.flatMap((a) => hostile(a.type).map((v) => ({ ...base, [a.name]: v }))),
      ];
      const before = await ownerState();
      for (const actor of ['anon', 'other', 'admin'] as const) {
        if (actor === 'admin') {
          const after = await ownerState();
          for (const k of Object.keys(before))
            if (before[k] !== after[k])
              failures.push(
                `${fn.name}: the owner's ${k} changed:\n  before ${before[k]}\n  after  ${after[k]}`,
              );
        }
        const access: Access =
          actor === 'anon'
            ? expected.anon
            : actor === 'other'
              ? expected.user
              : (expected.admin ?? expected.user);
        // An admin may legitimately change the owner's rows: only the 5xx check applies.
        if (actor === 'admin' && (access !== 'allowed' || !expected.admin)) continue;
        // A refused caller is refused before any argument is looked at: a few hostile bodies
        // show it; the full set goes to callers who get through.
        for (const body of access === 'allowed' ? bodies : bodies.slice(0, 4)) {
          const x = await call(actor, 'POST', `/rest/v1/rpc/${fn.name}`, {
            body: JSON.stringify(body),
          });
          calls++;
          try {
            verifyClientError(x, `${fn.name} as ${actor}`);
            const unexposed = x.status === 404 && x.body.includes('PGRST202');
            if (access === 'trigger')
              verify(unexposed, `${fn.name}: a trigger function answered ${x.status}`, x);
            if (access === 'refused')
              verify(x.status >= 400, `${fn.name} as ${actor} was not refused`, x);
            if (access === 'refused' && body === base)
              verify(refused(x), `${fn.name} as ${actor}: expected 401/403`, x);
            if (access === 'allowed' && body === base)
              verify(!unexposed, `${fn.name} as ${actor} is not exposed`, x);
          } catch (error) {
            failures.push((error as Error).message);
          }
        }
      }
    }
    const { rows } = await t.db.query<{ balance: string; ledger: string; odd: string }>(
      `select p.balance::text as balance,
              (select coalesce(sum(amount), 0)::text from public.earnings_ledger where user_id = p.id) as ledger,
              (select count(*)::text from public.withdrawals where user_id = p.id
                 and (amount = 'NaN' or amount < 5 or amount > 20)) as odd
       from public.profiles p where id = $1`,
      [w.other.id],
    );
    const money = rows[0]!;
    if (
      Number(money.balance) !== Number(money.ledger) ||
      money.odd !== '0' ||
      money.balance === 'NaN'
    )
      failures.push(
        `the other user's money: ${JSON.stringify(money)} (balance must be the ledger's sum, withdrawals 5–20 EUR)`,
      );
    console.log(`security definer functions: ${fns.length} functions, ${calls} calls`);
    verify(failures.length === 0, failures.join('\n\n'));
  });

  it('tell another user nothing about the owner’s tracks and objects', async () => {
    const edit = await call('other', 'POST', '/rest/v1/rpc/can_edit_track', {
      body: JSON.stringify({ p_track_id: w.trackO }),
    });
    verify(
      edit.status === 200 && edit.body.trim() === 'false',
      'can_edit_track of the owner’s track',
      edit,
    );
    const retry = await call('other', 'POST', '/rest/v1/rpc/retry_track_processing', {
      body: JSON.stringify({ track_id: w.trackO }),
    });
    verify(
      retry.status >= 400 && retry.status < 500,
      'retry_track_processing of the owner’s track',
      retry,
    );
  });
});
