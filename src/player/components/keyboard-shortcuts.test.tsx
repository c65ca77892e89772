import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as actions from '../actions';
import { playerState } from '../store';
import { createTrack } from '../test-tracks';
import { KeyboardShortcuts } from './keyboard-shortcuts';
import { renderPlayer } from './render-player';

const a = createTrack({ id: 'a' });

beforeEach(() => {
  actions.resetPlayer();
  actions.clickTrack([a], a);
  actions.syncDuration(100);
  actions.syncTime(50);
});

describe('KeyboardShortcuts', () => {
  it('Space toggles play/pause', async () => {
    renderPlayer(<KeyboardShortcuts />);
    await userEvent.keyboard(' ');
    expect(playerState.isPlaying).toBe(false);
    await userEvent.keyboard(' ');
    expect(playerState.isPlaying).toBe(true);
  });

  it('arrows seek by 5 s and change the volume', async () => {
    renderPlayer(<KeyboardShortcuts />);
    await userEvent.keyboard('{ArrowRight}');
    expect(playerState.currentTime).toBe(55);
    await userEvent.keyboard('{ArrowLeft}{ArrowLeft}');
    expect(playerState.currentTime).toBe(45);
    await userEvent.keyboard('{ArrowDown}');
    expect(playerState.volume).toBeCloseTo(0.65);
    await userEvent.keyboard('{ArrowUp}{ArrowUp}');
    expect(playerState.volume).toBeCloseTo(0.75);
  });

  it('M mutes and unmutes, S shuffles, R cycles repeat (either case)', async () => {
    renderPlayer(<KeyboardShortcuts />);
    await userEvent.keyboard('m');
    expect(playerState.muted).toBe(true);
    await userEvent.keyboard('M');
    expect(playerState).toMatchObject({ muted: false, volume: 0.7 });
    await userEvent.keyboard('s');
    expect(playerState.shuffle).toBe(true);
    await userEvent.keyboard('rR');
    expect(playerState.repeat).toBe('one');
  });

  it('L toggles the like of the current track', async () => {
    const onToggleLike = vi.fn();
    renderPlayer(<KeyboardShortcuts onToggleLike={onToggleLike} />);
    await userEvent.keyboard('l');
    expect(onToggleLike).toHaveBeenCalledWith(a);
  });

  it('? opens the help dialog', async () => {
    renderPlayer(<KeyboardShortcuts />);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await userEvent.keyboard('?');
    // The dialog is a lazy chunk: on a loaded machine its import takes more than findBy's 1 s.
    expect(
      await screen.findByRole('dialog', { name: 'Keyboard shortcuts' }, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expect(screen.getByText('Mute or unmute')).toBeInTheDocument();
  });

  it('ignores keys typed into inputs and keys with Ctrl or Meta', async () => {
    renderPlayer(
      <>
        <KeyboardShortcuts />
        <input aria-label="Search" />
        <textarea aria-label="Lyrics" />
      </>,
    );
    await userEvent.click(screen.getByRole('textbox', { name: 'Search' }));
    await userEvent.keyboard(' ms');
    await userEvent.click(screen.getByRole('textbox', { name: 'Lyrics' }));
    await userEvent.keyboard('r{ArrowLeft}');
    expect(playerState).toMatchObject({
      isPlaying: true,
      muted: false,
      shuffle: false,
      repeat: 'off',
    });
    expect(playerState.currentTime).toBe(50);
    await userEvent.click(document.body);
    await userEvent.keyboard('{Control>}s{/Control}{Meta>}r{/Meta}');
    expect(playerState).toMatchObject({ shuffle: false, repeat: 'off' });
  });

  it('Space on a focused button is the button’s', async () => {
    const onClick = vi.fn();
    renderPlayer(
      <>
        <KeyboardShortcuts />
        <button onClick={onClick}>Other</button>
      </>,
    );
    screen.getByRole('button', { name: 'Other' }).focus();
    await userEvent.keyboard(' ');
    expect(onClick).toHaveBeenCalledOnce();
    expect(playerState.isPlaying).toBe(true);
  });

  it('without a track Space and arrows keep their page meaning', async () => {
    actions.stop();
    renderPlayer(<KeyboardShortcuts />);
    const event = new KeyboardEvent('keydown', { key: ' ', cancelable: true });
    act(() => {
      window.dispatchEvent(event);
    });
    expect(event.defaultPrevented).toBe(false);
  });

  it('stops listening when unmounted', async () => {
    const { unmount } = renderPlayer(<KeyboardShortcuts />);
    unmount();
    await userEvent.keyboard('s');
    expect(playerState.shuffle).toBe(false);
  });
});
