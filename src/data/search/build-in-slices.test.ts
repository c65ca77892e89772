import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildInSlices } from './build-in-slices';

afterEach(() => {
  vi.useRealTimers();
});

describe('buildInSlices', () => {
  it('steps until done, one slice per task, and reports the end', async () => {
    vi.useFakeTimers();
    let left = 3;
    const yields: boolean[] = [];
    const onDone = vi.fn();
    buildInSlices(
      {
        step: (shouldYield) => {
          yields.push(shouldYield());
          return --left === 0;
        },
      },
      onDone,
    );
    expect(left).toBe(3); // nothing runs synchronously
    await vi.runAllTimersAsync();
    expect(left).toBe(0);
    expect(onDone).toHaveBeenCalledOnce();
  });

  it('stops when cancelled', async () => {
    vi.useFakeTimers();
    const step = vi.fn(() => false);
    const cancel = buildInSlices({ step });
    await vi.advanceTimersByTimeAsync(100);
    const calls = step.mock.calls.length;
    expect(calls).toBeGreaterThan(0);
    cancel();
    await vi.advanceTimersByTimeAsync(1000);
    expect(step.mock.calls.length).toBe(calls);
  });
});
