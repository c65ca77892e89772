import { afterEach, describe, expect, it, vi } from 'vitest';
import { importWhenOnline } from './lazy-chunk';

const setOnline = (value: boolean) => vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(value);

describe('importWhenOnline', () => {
  afterEach(() => vi.restoreAllMocks());

  it('offline, waits for the network and tries again instead of failing', async () => {
    setOnline(false);
    const load = vi
      .fn<() => Promise<string>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'))
      .mockResolvedValueOnce('chunk');
    let settled = false;
    const result = importWhenOnline(load).finally(() => (settled = true));
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
    await expect(importWhenOnline(() => Promise.reject(error))).rejects.toBe(error);
  });

  it('a chunk that loads is passed through at once', async () => {
    await expect(importWhenOnline(() => Promise.resolve(42))).resolves.toBe(42);
  });
});
