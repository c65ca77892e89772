import { afterEach, describe, expect, it, vi } from 'vitest';
import { retryWhileOffline } from './retry-while-offline';

const setOnline = (value: boolean) => vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(value);

describe('retryWhileOffline', () => {
  afterEach(() => vi.restoreAllMocks());

  it('offline, waits for the network and tries again instead of failing', async () => {
    setOnline(false);
    const load = vi
      .fn<() => Promise<string>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'))
      .mockResolvedValueOnce('chunk');
    let settled = false;
    const result = retryWhileOffline(load).finally(() => (settled = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(settled).toBe(false);
    expect(load).toHaveBeenCalledTimes(1);

    setOnline(true);
    window.dispatchEvent(new Event('online'));
    await expect(result).resolves.toBe('chunk');
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('online, a failed import still rejects (the error boundary offers a reload)', async () => {
    setOnline(true);
    const error = new TypeError('Failed to fetch dynamically imported module');
    await expect(retryWhileOffline(() => Promise.reject(error))).rejects.toBe(error);
  });

  it('a chunk that loads is passed through at once', async () => {
    await expect(retryWhileOffline(() => Promise.resolve(42))).resolves.toBe(42);
  });

  it('a resolved value `failed` names is retried offline, and passed on online', async () => {
    const onLine = setOnline(false);
    const outcomes = ['failed', 'failed', 'loaded'];
    const attempt = vi.fn(async () => outcomes.shift()!);
    const result = retryWhileOffline(attempt, (v) => v === 'failed');
    await new Promise((r) => setTimeout(r, 20));
    expect(attempt).toHaveBeenCalledTimes(1);

    // Back online, the second attempt fails too: passed on, not retried.
    onLine.mockReturnValue(true);
    window.dispatchEvent(new Event('online'));
    await expect(result).resolves.toBe('failed');
    expect(attempt).toHaveBeenCalledTimes(2);
  });
});
