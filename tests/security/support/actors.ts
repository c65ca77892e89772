/** The four actors of the matrices, and requests that watch every answer for the owner's canaries. */
import { afterAll, beforeAll } from 'vitest';
import { startTarget, type Target } from './target';
import { buildWorld, type World } from './world';
import { verify, type Exchange, type SendInit } from './http';
import type { Actor } from '../expectations/tables';

export type Caller = (
  actor: Actor,
  method: string,
  path: string,
  init?: SendInit,
) => Promise<Exchange>;

/**
 * Requests as an actor. Answers to anon and to the other user must never contain one of the
 * owner's canaries (e-mail, Stripe customer id, bank details, balance, report note, session).
 */
export function caller(t: Target, w: World): Caller {
  return async (actor, method, path, init = {}) => {
    const as = actor === 'anon' ? 'anon' : w[actor];
    const x = await t.request(method, path, { ...init, as });
    if (actor === 'anon' || actor === 'other') {
      const leaked = w.canaries.filter((c) => x.body.includes(c));
      verify(leaked.length === 0, `${actor} read the owner's secret ${leaked.join(', ')}`, x);
    }
    return x;
  };
}

/**
 * Registers the hooks of a file that attacks the world: a target, the world in it and a caller
 * (before the file's own hooks), closed after. The getters are valid inside hooks and tests.
 */
export function useAttackWorld(): { readonly t: Target; readonly w: World; readonly call: Caller } {
  let state: { t: Target; w: World; call: Caller } | undefined;
  let target: Target | undefined;
  beforeAll(async () => {
    target = await startTarget();
    const w = await buildWorld(target.db);
    state = { t: target, w, call: caller(target, w) };
  });
  afterAll(async () => {
    await target?.close();
  });
  const get = () => {
    if (!state) throw new Error('useAttackWorld: the world is built in beforeAll');
    return state;
  };
  return {
    get t() {
      return get().t;
    },
    get w() {
      return get().w;
    },
    get call() {
      return get().call;
    },
  };
}
