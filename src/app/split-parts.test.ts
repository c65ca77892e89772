import { afterEach, describe, expect, it, vi } from 'vitest';
import { splitPartsWaitForNetwork } from './create-router';

type Part = (() => null) & { preload?: () => Promise<void> };

/** A part as lazyRouteComponent makes it: preload clears itself once the chunk has loaded. */
function splitPart(outcomes: boolean[]): Part {
  const part: Part = () => null;
  part.preload = vi.fn(async () => {
    if (outcomes.shift()) part.preload = undefined;
  });
  return part;
}

describe('splitPartsWaitForNetwork', () => {
  afterEach(() => vi.restoreAllMocks());

  it('offline, the preload the router awaits waits for the network and tries again', async () => {
    const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const original = splitPart([false, true]);
    const firstTry = original.preload;
    const route = { options: { component: original as unknown } };
    splitPartsWaitForNetwork([route]);
    const wrapped = route.options.component as Part;
    expect(wrapped).not.toBe(original);

    let done = false;
    const loading = wrapped.preload!().then(() => (done = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(done).toBe(false);
    expect(firstTry).toHaveBeenCalledTimes(1);

    onLine.mockReturnValue(true);
    window.dispatchEvent(new Event('online'));
    await loading;
    expect(firstTry).toHaveBeenCalledTimes(2);
    expect(original.preload).toBeUndefined();
  });

  it('online, a failed preload settles at once (the original reloads, as TanStack does)', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true);
    const original = splitPart([false]);
    const route = { options: { component: original as unknown } };
    splitPartsWaitForNetwork([route]);
    await (route.options.component as Part).preload!();
    expect(original.preload).toBeDefined();
  });

  it('leaves parts that are not code-split alone', () => {
    const plain = () => null;
    const route = { options: { component: plain as unknown } };
    splitPartsWaitForNetwork([route]);
    expect(route.options.component).toBe(plain);
  });
});
