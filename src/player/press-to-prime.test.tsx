import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as actions from './actions';
import { pressToPrime, type PressTarget } from './press-to-prime';
import { primeTrack, releasePrimedTrack } from './start-player';
import { createTrack } from './test-tracks';

vi.mock('./start-player', () => ({ primeTrack: vi.fn(), releasePrimedTrack: vi.fn() }));

const a = createTrack({ id: 'a', title: 'Alpha' });
const b = createTrack({ id: 'b', title: 'Beta' });

beforeEach(() => {
  actions.resetPlayer();
  vi.mocked(primeTrack).mockClear();
  vi.mocked(releasePrimedTrack).mockClear();
});

/** A play button as the features write it: the press props spread, the click its own. */
function renderButton(target: PressTarget) {
  cleanup();
  render(
    <button type="button" {...pressToPrime(target)}>
      Play
    </button>,
  );
  return screen.getByRole('button', { name: 'Play' });
}

describe('pressToPrime', () => {
  it("the primary button's press loads the track; right and middle presses do not", () => {
    const button = renderButton(a);
    fireEvent.pointerDown(button, { button: 2 });
    fireEvent.pointerDown(button, { button: 1 });
    expect(primeTrack).not.toHaveBeenCalled();
    fireEvent.pointerDown(button, { button: 0 });
    expect(primeTrack).toHaveBeenCalledExactlyOnceWith(a);
  });

  it('Enter and Space load the track (the keys that click a button); other keys do not', () => {
    const button = renderButton(a);
    for (const key of ['Tab', 'a', 'ArrowDown', 'Escape', 'Shift'])
      fireEvent.keyDown(button, { key });
    expect(primeTrack).not.toHaveBeenCalled();
    fireEvent.keyDown(button, { key: 'Enter' });
    fireEvent.keyDown(button, { key: ' ' });
    expect(vi.mocked(primeTrack).mock.calls).toEqual([[a], [a]]);
  });

  it('a press on the current track loads nothing: its click pauses or resumes it', async () => {
    await act(async () => actions.clickTrack([a, b], a));
    const button = renderButton(a);
    // Playing: the click would pause.
    fireEvent.pointerDown(button, { button: 0 });
    fireEvent.keyDown(button, { key: 'Enter' });
    // Paused: the click would resume the same element.
    await act(async () => actions.pause());
    fireEvent.pointerDown(button, { button: 0 });
    fireEvent.keyDown(button, { key: ' ' });
    expect(primeTrack).not.toHaveBeenCalled();
  });

  it('a press on another track while one plays loads it', async () => {
    await act(async () => actions.clickTrack([a, b], a));
    fireEvent.pointerDown(renderButton(b), { button: 0 });
    expect(primeTrack).toHaveBeenCalledExactlyOnceWith(b);
  });

  it('a function is asked at the press, with the current track; null loads nothing', async () => {
    const target = vi.fn((current: unknown) => (current ? null : b));
    const button = renderButton(target);
    expect(target).not.toHaveBeenCalled();
    fireEvent.pointerDown(button, { button: 0 });
    expect(target).toHaveBeenLastCalledWith(null);
    expect(primeTrack).toHaveBeenCalledExactlyOnceWith(b);
    await act(async () => actions.clickTrack([a], a));
    fireEvent.pointerDown(button, { button: 0 });
    expect(target).toHaveBeenLastCalledWith(a);
    expect(primeTrack).toHaveBeenCalledOnce();
  });

  it("the press's end is reported at its release, wherever the pointer went, or the key's keyup", () => {
    // The earlier tests' presses never ended: end them first.
    fireEvent.pointerUp(window);
    fireEvent.keyUp(window);
    vi.mocked(releasePrimedTrack).mockClear();
    const button = renderButton(a);
    fireEvent.pointerDown(button, { button: 0 });
    expect(releasePrimedTrack).not.toHaveBeenCalled();
    // Released elsewhere (the pointer left the button): still the end of the press.
    fireEvent.pointerUp(document.body);
    expect(releasePrimedTrack).toHaveBeenCalledOnce();
    fireEvent.pointerUp(document.body);
    expect(releasePrimedTrack).toHaveBeenCalledOnce();
    fireEvent.keyDown(button, { key: 'Enter' });
    fireEvent.keyUp(button, { key: 'Enter' });
    expect(releasePrimedTrack).toHaveBeenCalledTimes(2);
    fireEvent.pointerDown(button, { button: 0 });
    fireEvent.pointerCancel(button);
    expect(releasePrimedTrack).toHaveBeenCalledTimes(3);
  });

  it('nothing to start (no track yet): nothing loads', () => {
    fireEvent.keyDown(renderButton(undefined), { key: 'Enter' });
    fireEvent.pointerDown(renderButton(null), { button: 0 });
    expect(primeTrack).not.toHaveBeenCalled();
  });
});
