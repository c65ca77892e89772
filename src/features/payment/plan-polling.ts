/**
 * Spec 4: after checkout the success page polls the profile's plan up to 5 times at 2 s while
 * it is still free (or, after a change between paid plans, until it is the new plan): the
 * webhook, not the browser, changes it.
 */
export const POLL_ATTEMPTS = 5;
export const POLL_INTERVAL_MS = 2000;

export type PollState =
  | { phase: 'processing' }
  | { phase: 'retrying'; attempt: number }
  | { phase: 'done'; plan: string | null };

export const PROCESSING_TEXT = 'Processing your payment...';
export const retryingText = (attempt: number) =>
  `Updating your subscription... (Attempt ${attempt}/${POLL_ATTEMPTS})`;

/** Polls `read` until it reports a plan that is not free (or is `target`); null when it never did. */
export async function pollPlan(
  read: () => Promise<string>,
  onState: (state: PollState) => void,
  options: {
    target?: string | null;
    isLive?: () => boolean;
    sleep?: (ms: number) => Promise<void>;
  } = {},
): Promise<string | null> {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const live = options.isLive ?? (() => true);
  const reached = (plan: string) => (options.target ? plan === options.target : plan !== 'free');
  onState({ phase: 'processing' });
  for (let attempt = 1; attempt <= POLL_ATTEMPTS; attempt++) {
    if (attempt > 1) onState({ phase: 'retrying', attempt });
    const plan = await read().catch(() => null);
    if (!live()) return null;
    if (plan !== null && reached(plan)) {
      onState({ phase: 'done', plan });
      return plan;
    }
    if (attempt < POLL_ATTEMPTS) await sleep(POLL_INTERVAL_MS);
    if (!live()) return null;
  }
  onState({ phase: 'done', plan: null });
  return null;
}
