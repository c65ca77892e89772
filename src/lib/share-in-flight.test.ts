// @vitest-environment node
import { expect, it, vi } from 'vitest';
import { createInFlight } from './share-in-flight';

it('shares a running call by key, runs again once it settled, and shares failures', async () => {
  const share = createInFlight();
  let resolve!: (v: number) => void;
  const run = vi.fn(() => new Promise<number>((r) => (resolve = r)));
  const a = share('p:1', run);
  const b = share('p:1', run);
  const other = share('p:2', () => Promise.resolve(2));
  expect(run).toHaveBeenCalledTimes(1);
  resolve(1);
  expect(await Promise.all([a, b, other])).toEqual([1, 1, 2]);

  const again = share('p:1', run);
  expect(run).toHaveBeenCalledTimes(2);
  resolve(3);
  expect(await again).toBe(3);

  const failing = vi.fn(() => Promise.reject(new Error('offline')));
  const results = await Promise.allSettled([share('x', failing), share('x', failing)]);
  expect(failing).toHaveBeenCalledTimes(1);
  expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  await expect(share('x', () => Promise.resolve('again'))).resolves.toBe('again');
});
