/**
 * PostgREST's execution plans (`db-plan-enabled`, supabase-js `.explain()`): `Accept:
 * application/vnd.pgrst.plan[+json|+text]; for="<media>"; options=analyze|verbose|settings|buffers|wal`
 * answers the `EXPLAIN` of the statement the request would run, in the request's role and
 * transaction (RLS applies; `analyze` executes it). Off unless `planEnabled`: a plan shows the
 * statement's shape, RLS policies' conditions included (docs/rest-api.md#execution-plans).
 */
import {
  respond,
  type HandlerContext,
  type PlanOption,
  type PlanRequest,
  type RestResponse,
} from './context';
import { RestError } from './errors';
import { runStatementAsRequest } from './executor';

const PLAN_OPTIONS: readonly PlanOption[] = ['analyze', 'verbose', 'settings', 'buffers', 'wal'];

const MEDIA_TYPE = /^[\w.+*-]+\/[\w.+*-]+$/;
const PLAN_TYPE = /^application\/vnd\.pgrst\.plan(\+json|\+text)?$/;

/**
 * The plan asked for by `Accept`, or undefined when it asks for none. Options outside
 * PostgREST's five and unknown `for` media types are 406 PGRST107 as in PostgREST.
 */
export function planRequest(accept: string | undefined): PlanRequest | undefined {
  if (!accept) return undefined;
  for (const part of accept.split(/,(?=\s*[\w*]+\/)/)) {
    const [type = '', ...params] = part.split(';').map((s) => s.trim());
    const m = PLAN_TYPE.exec(type.toLowerCase());
    if (!m) continue;
    let forMedia = 'application/json';
    const options: PlanOption[] = [];
    for (const p of params) {
      const eq = p.indexOf('=');
      if (eq < 0) continue;
      const key = p.slice(0, eq).trim().toLowerCase();
      const value = p
        .slice(eq + 1)
        .trim()
        .replace(/^"(.*)"$/, '$1');
      if (key === 'for') {
        if (!MEDIA_TYPE.test(value))
          throw new RestError(406, 'PGRST107', `None of these media types are available: ${type}`);
        forMedia = value;
      } else if (key === 'options') {
        for (const o of value.split('|').map((x) => x.trim().toLowerCase())) {
          if (!o) continue;
          if (!(PLAN_OPTIONS as readonly string[]).includes(o))
            throw new RestError(
              406,
              'PGRST107',
              `None of these media types are available: ${accept}`,
            );
          if (!options.includes(o as PlanOption)) options.push(o as PlanOption);
        }
      }
    }
    return { format: m[1] === '+json' ? 'json' : 'text', forMedia, options };
  }
  return undefined;
}

/** `EXPLAIN (FORMAT …, <options>) <sql>`: only the whitelisted words above reach the SQL text. */
export function explainSql(plan: PlanRequest, sql: string): string {
  const opts = [`FORMAT ${plan.format === 'json' ? 'JSON' : 'TEXT'}`];
  for (const o of plan.options) opts.push(o.toUpperCase());
  return `EXPLAIN (${opts.join(', ')}) ${sql}`;
}

/**
 * A verbose plan shows its `Query Identifier` where Postgres computes query ids: on hosted
 * Supabase pg_stat_statements turns `compute_query_id` on. The same, for this transaction only,
 * before the role switch and only where the connection's own user may set it (PostgreSQL 15's
 * parameter privileges; a superuser may): elsewhere nothing changes.
 */
const QUERY_ID = {
  sql: "select set_config('compute_query_id', 'on', true) where has_parameter_privilege('compute_query_id', 'SET')",
};

/**
 * Answers the plan of `sql` (the statement the request would run) instead of running it, in
 * the request's role and transaction (read-only for GET/HEAD RPC calls, as the call itself).
 */
export async function explainResponse(
  ctx: HandlerContext,
  readOnly: boolean,
  sql: string,
  values: unknown[],
): Promise<RestResponse> {
  const plan = ctx.plan as PlanRequest;
  const res = await runStatementAsRequest(
    ctx.db,
    ctx.request,
    readOnly,
    { sql: explainSql(plan, sql), params: values },
    plan.options.includes('verbose') ? [QUERY_ID] : [],
  );
  let body: string;
  if (plan.format === 'json') {
    const raw = Object.values(res.rows[0] ?? {})[0];
    body = typeof raw === 'string' ? raw : JSON.stringify(raw);
  } else {
    body = res.rows.map((r) => String(Object.values(r)[0])).join('\n');
  }
  return respond(200, ctx.method === 'HEAD' ? null : body, {
    'Content-Type': `application/vnd.pgrst.plan+${plan.format}; for="${plan.forMedia}"; charset=utf-8`,
  });
}
