import { describe, expect, it } from 'vitest';
import { separateOnWorker } from './on-worker';
import { STEM_NAMES, separate } from './separate';

describe('separateOnWorker', { timeout: 120_000 }, () => {
  it('gives the same stems as the main thread, with progress', async () => {
    const x = new Float32Array(22050);
    for (let n = 0; n < x.length; n++) x[n] = Math.sin(n * 0.05) + (n % 5000 === 0 ? 0.8 : 0);
    const seen: number[] = [];
    const stems = await separateOnWorker([x], 44100, (f) => seen.push(f));
    const local = separate([x], 44100);
    for (const name of STEM_NAMES) expect(stems[name].channels[0]).toEqual(local[name].channels[0]);
    expect(seen.at(-1)).toBe(1);
    expect(x[100]).toBeCloseTo(Math.sin(5)); // the input was copied, not transferred
    expect(x.length).toBe(22050);
  });

  it('rejects with the worker error', async () => {
    await expect(separateOnWorker([], 44100)).rejects.toThrow('1 or 2 channels');
  });
});
