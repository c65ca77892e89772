/**
 * Rate limits counted in the database (auth.rate_limits, bootstrap.sql), so that every node on
 * one database shares them: a limit of N per window holds across nodes, not N × nodes. A hit is
 * taken atomically before the work it limits (`auth.rate_limit_take` locks the keys' rows, counts
 * the window and adds the hit in one statement), so concurrent requests on several nodes cannot
 * all pass a check before any of them counts. What must not count is given back afterwards.
 * docs/auth.md § Rate limits.
 */
import type { Database } from '../db/database';
import { AuthHttpError, tooManyRequests } from './errors';

export class RateLimiter {
  constructor(
    private readonly db: Database,
    readonly windowMs: number,
  ) {}

  /**
   * Takes one hit for every key (key → its limit) if none of them is used up: 0. Otherwise takes
   * none and answers the seconds until the fullest key frees a hit.
   */
  async take(limits: Record<string, number>): Promise<number> {
    const keys = Object.keys(limits);
    const { rows } = await this.db.query<{ wait: number }>(
      'select auth.rate_limit_take($1::text[], $2::int[], $3::int) as wait',
      [keys, keys.map((k) => limits[k]), Math.round(this.windowMs)],
    );
    return Number(rows[0]?.wait ?? 0);
  }

  /** Gives back the newest hit of `key`. */
  async refund(key: string): Promise<void> {
    await this.db.query('select auth.rate_limit_refund($1)', [key]);
  }

  /** Forgets `key`'s hits. */
  async reset(key: string): Promise<void> {
    await this.db.query('select auth.rate_limit_reset($1)', [key]);
  }
}

/**
 * Guesses of a secret (a password, a six-digit code) limited per address and per client IP:
 * takes a hit on both before `attempt` runs (429 over_request_rate_limit once either is used up;
 * then even the right guess waits, so a guesser cannot tell a hit). A wrong guess (`attempt`
 * throws an AuthHttpError that `counts`) keeps both hits; a right one resets the address and
 * gives the IP's hit back; any other failure gives both back.
 */
export async function limitGuesses<T>(
  limiter: RateLimiter,
  keys: { email: string; ip: string },
  limits: { perEmail: number; perIp: number },
  attempt: () => Promise<T>,
  counts: (error: AuthHttpError) => boolean = () => true,
): Promise<T> {
  const wait = await limiter.take({ [keys.email]: limits.perEmail, [keys.ip]: limits.perIp });
  if (wait > 0)
    throw tooManyRequests('over_request_rate_limit', 'Request rate limit reached', wait);
  let result: T;
  try {
    result = await attempt();
  } catch (error) {
    if (!(error instanceof AuthHttpError && counts(error))) {
      await limiter.refund(keys.email);
      await limiter.refund(keys.ip);
    }
    throw error;
  }
  await limiter.reset(keys.email);
  await limiter.refund(keys.ip);
  return result;
}
