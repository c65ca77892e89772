// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { POLL_ATTEMPTS, pollPlan, retryingText, type PollState } from './plan-polling';
import { planButton } from './subscription-text';

describe('planButton (spec 2)', () => {
  it('free user: disabled Select Plan on Free, Upgrade Plan elsewhere', () => {
    expect(planButton('free', 'free')).toMatchObject({ label: 'Select Plan', disabled: true });
    expect(planButton('basic', 'free')).toMatchObject({ label: 'Upgrade Plan', disabled: false });
    expect(planButton('premium', 'free')).toMatchObject({ label: 'Upgrade Plan' });
  });
  it('paid user: Current Plan on theirs, Downgrade to Free on Free (until it is scheduled)', () => {
    expect(planButton('basic', 'basic')).toMatchObject({ label: 'Current Plan', disabled: true });
    expect(planButton('free', 'basic')).toMatchObject({ label: 'Downgrade to Free' });
    expect(planButton('premium', 'basic')).toMatchObject({ label: 'Upgrade Plan' });
    expect(planButton('free', 'premium', true)).toMatchObject({
      label: 'Downgrade scheduled',
      disabled: true,
    });
  });
});

describe('pollPlan (spec 4)', () => {
  const run = async (plans: string[], target?: string) => {
    const states: PollState[] = [];
    const slept: number[] = [];
    let i = 0;
    const result = await pollPlan(
      async () => plans[Math.min(i++, plans.length - 1)] ?? 'free',
      (s) => states.push(s),
      {
        target,
        sleep: async (ms) => {
          slept.push(ms);
        },
      },
    );
    return { result, states, slept, reads: i };
  };

  it('stops as soon as the plan is no longer free', async () => {
    const { result, states, reads } = await run(['free', 'free', 'basic']);
    expect(result).toBe('basic');
    expect(reads).toBe(3);
    expect(states).toEqual([
      { phase: 'processing' },
      { phase: 'retrying', attempt: 2 },
      { phase: 'retrying', attempt: 3 },
      { phase: 'done', plan: 'basic' },
    ]);
  });

  it('gives up after 5 attempts at 2 s', async () => {
    const { result, slept, reads } = await run(['free']);
    expect(result).toBeNull();
    expect(reads).toBe(POLL_ATTEMPTS);
    expect(slept).toEqual([2000, 2000, 2000, 2000]);
    expect(retryingText(3)).toBe('Updating your subscription... (Attempt 3/5)');
  });

  it('waits for the new plan after a change between paid plans', async () => {
    expect((await run(['basic', 'premium'], 'premium')).result).toBe('premium');
  });
});
