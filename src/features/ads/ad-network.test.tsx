/**
 * The configured ad network (DECISIONS.md: only when configured): which settings count, and when
 * its script is added to the page (free plan, substantial content, once) or the page starts over
 * without it (plan no longer free, signed out).
 */
import { act, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { adNetworkScriptUrl } from './ad-network-config';
import AdNetwork from './ad-network';

const SCRIPT = 'https://ads.example.test/tag.js?client=pub-1';
const scripts = () => [...document.head.querySelectorAll('script[data-soundloft-ad-network]')];

function page(text: string) {
  const main = document.createElement('main');
  main.id = 'main';
  main.innerHTML = `<p>${text}</p>`;
  document.body.append(main);
  return main;
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  document.head.querySelectorAll('script').forEach((s) => s.remove());
  document.getElementById('main')?.remove();
});

describe('adNetworkScriptUrl', () => {
  it('is null when nothing is configured: house ads only', () => {
    expect(adNetworkScriptUrl(undefined)).toBeNull();
    expect(adNetworkScriptUrl('  ')).toBeNull();
  });

  it('takes an https SCRIPT, or http on localhost', () => {
    expect(adNetworkScriptUrl(SCRIPT)).toBe(SCRIPT);
    expect(adNetworkScriptUrl('http://localhost:9000/ads.js')).toBe('http://localhost:9000/ads.js');
  });

  it('ignores anything else', () => {
    expect(adNetworkScriptUrl('http://ads.example.test/tag.js')).toBeNull();
    expect(adNetworkScriptUrl('javascript:alert(1)')).toBeNull();
    expect(adNetworkScriptUrl('not a url')).toBeNull();
  });
});

describe('AdNetwork', () => {
  const reload = vi.fn();
  beforeEach(() => reload.mockReset());

  it('adds the script once the content is substantial, once, async', async () => {
    const main = page('Short.');
    const view = render(<AdNetwork scriptUrl={SCRIPT} free reload={reload} />);
    await act(() => vi.advanceTimersByTimeAsync(3000));
    expect(scripts()).toHaveLength(0);

    main.innerHTML = `<p>${'A page with plenty to read. '.repeat(10)}</p>`;
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(scripts()).toHaveLength(1);
    const script = scripts()[0] as HTMLScriptElement;
    expect(script.src).toBe(SCRIPT);
    expect(script.async).toBe(true);

    view.rerender(<AdNetwork scriptUrl={SCRIPT} free reload={reload} />);
    await act(() => vi.advanceTimersByTimeAsync(5000));
    expect(scripts()).toHaveLength(1);
    expect(reload).not.toHaveBeenCalled();
  });

  it('never adds it for a paid plan', async () => {
    page(`${'A page with plenty to read. '.repeat(10)}`);
    render(<AdNetwork scriptUrl={SCRIPT} free={false} reload={reload} />);
    await act(() => vi.advanceTimersByTimeAsync(5000));
    expect(scripts()).toHaveLength(0);
    expect(reload).not.toHaveBeenCalled();
  });

  it('starts the page over without it when the plan stops being free', async () => {
    page(`${'A page with plenty to read. '.repeat(10)}`);
    const view = render(<AdNetwork scriptUrl={SCRIPT} free reload={reload} />);
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(scripts()).toHaveLength(1);
    view.rerender(<AdNetwork scriptUrl={SCRIPT} free={false} reload={reload} />);
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('and when the signed-in frame goes (sign-out), but not before it was added', async () => {
    page('Short.');
    const before = render(<AdNetwork scriptUrl={SCRIPT} free reload={reload} />);
    before.unmount();
    await act(() => vi.advanceTimersByTimeAsync(10));
    expect(reload).not.toHaveBeenCalled();

    document.getElementById('main')!.innerHTML = `<p>${'Plenty to read here. '.repeat(12)}</p>`;
    const after = render(<AdNetwork scriptUrl={SCRIPT} free reload={reload} />);
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(scripts()).toHaveLength(1);
    after.unmount();
    await act(() => vi.advanceTimersByTimeAsync(10));
    expect(reload).toHaveBeenCalledTimes(1);
  });
});
