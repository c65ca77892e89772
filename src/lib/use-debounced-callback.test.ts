import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useDebouncedCallback } from './use-debounced-callback';

describe('useDebouncedCallback', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('calls once, after the delay, with the last arguments of a burst', () => {
    const fn = vi.fn();
    const { result } = renderHook(() => useDebouncedCallback(fn, 300));
    act(() => {
      result.current('a');
      vi.advanceTimersByTime(200);
      result.current('ab');
      vi.advanceTimersByTime(299);
    });
    expect(fn).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(fn).toHaveBeenCalledExactlyOnceWith('ab');
  });

  it('calls the latest callback, and cancel or unmount drops the pending call', () => {
    const first = vi.fn();
    const second = vi.fn();
    const { result, rerender, unmount } = renderHook(({ fn }) => useDebouncedCallback(fn, 100), {
      initialProps: { fn: first },
    });
    const debounced = result.current;
    rerender({ fn: second });
    expect(result.current).toBe(debounced); // stable across renders
    act(() => {
      result.current(1);
      vi.advanceTimersByTime(100);
    });
    expect(first).not.toHaveBeenCalled();
    expect(second).toHaveBeenCalledExactlyOnceWith(1);
    act(() => {
      result.current(2);
      result.current.cancel();
      vi.advanceTimersByTime(100);
      result.current(3);
    });
    unmount();
    act(() => vi.advanceTimersByTime(100));
    expect(second).toHaveBeenCalledTimes(1);
  });
});
