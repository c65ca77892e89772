import { act, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as actions from '../actions';
import { playerState } from '../store';
import { createTrack } from '../test-tracks';
import { QueuePanel } from './queue-panel';
import { primeTrack } from '../start-player';
import { renderPlayer } from './render-player';

vi.mock('../start-player', () => ({ primeTrack: vi.fn(), releasePrimedTrack: vi.fn() }));

const a = createTrack({ id: 'a', title: 'Alpha' });
const b = createTrack({ id: 'b', title: 'Beta' });

beforeEach(() => {
  actions.resetPlayer();
  vi.mocked(primeTrack).mockClear();
});

describe('QueuePanel', () => {
  it("says 'No tracks in queue' when empty", () => {
    renderPlayer(<QueuePanel opened onClose={() => undefined} />);
    expect(screen.getByRole('dialog', { name: 'Queue' })).toBeInTheDocument();
    expect(screen.getByText('No tracks in queue')).toBeInTheDocument();
  });

  it('lists the queue in order and marks the current track', async () => {
    await act(async () => actions.clickTrack([a, b], b));
    renderPlayer(<QueuePanel opened onClose={() => undefined} />);
    const rows = within(screen.getByRole('list', { name: 'Queue' })).getAllByRole('button');
    expect(rows.map((row) => row.textContent)).toEqual(['AlphaArtist', 'BetaArtist']);
    expect(rows[1]).toHaveAttribute('aria-current', 'true');
    expect(rows[0]).not.toHaveAttribute('aria-current');
  });

  it('clicking the current row pauses, another row plays it', async () => {
    await act(async () => actions.clickTrack([a, b], a));
    renderPlayer(<QueuePanel opened onClose={() => undefined} />);
    await userEvent.click(screen.getByText('Alpha'));
    expect(playerState.isPlaying).toBe(false);
    await userEvent.click(screen.getByText('Beta'));
    expect(playerState).toMatchObject({ isPlaying: true, currentTrack: b });
  });

  it("a row's press loads its track, the current row's loads nothing (pressToPrime)", async () => {
    await act(async () => actions.clickTrack([a, b], a));
    renderPlayer(<QueuePanel opened onClose={() => undefined} />);
    const [alpha, beta] = within(screen.getByRole('list', { name: 'Queue' })).getAllByRole(
      'button',
    ) as [HTMLElement, HTMLElement];
    fireEvent.pointerDown(alpha, { button: 0 });
    fireEvent.keyDown(alpha, { key: 'Enter' });
    expect(primeTrack).not.toHaveBeenCalled();
    fireEvent.pointerDown(beta, { button: 0 });
    expect(primeTrack).toHaveBeenCalledExactlyOnceWith(b);
  });

  it('closes with its close button and is hidden when closed', async () => {
    const onClose = vi.fn();
    const { rerender } = renderPlayer(<QueuePanel opened onClose={onClose} />);
    await userEvent.click(screen.getByRole('button', { name: 'Close queue' }));
    expect(onClose).toHaveBeenCalledOnce();
    rerender(<QueuePanel opened={false} onClose={onClose} />);
    expect(screen.queryByText('No tracks in queue')).not.toBeInTheDocument();
  });
});
