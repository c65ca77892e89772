import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { NO_LYRICS_MESSAGE } from '@/data';
import { createTrack, renderUi } from './lyrics-test-utils';
import { LyricsStudio } from './lyrics-studio';
import type * as DataModule from '@/data';

const calls: unknown[][] = [];
let outcome: () => Promise<unknown> = () => Promise.resolve({});
vi.mock('@/data', async (importOriginal) => ({
  ...(await importOriginal<typeof DataModule>()),
  useAllTracks: () => [],
  getRepositories: () => ({
    lyrics: {
      save: (...args: unknown[]) => {
        calls.push(args);
        return outcome();
      },
    },
  }),
}));
const fail = (message: string) => () => Promise.reject(new Error(message));

const track = createTrack();

vi.setConfig({ testTimeout: 30_000 });

beforeEach(() => {
  calls.length = 0;
  outcome = () => Promise.resolve({});
});

describe('LyricsStudio', () => {
  it('keeps at least one line and shows the data layer refusal', async () => {
    outcome = fail(NO_LYRICS_MESSAGE);
    renderUi(<LyricsStudio track={track} lyrics={null} onDone={() => undefined} />);
    expect(screen.getByRole('button', { name: 'Remove line 1' })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Save lyrics' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Unable to save lyrics');
    expect(alert).toHaveTextContent(NO_LYRICS_MESSAGE);
  });

  it.each([
    ['Track ID is required to save lyrics', 'Track ID is required to save lyrics'],
    ['Failed to save lyrics', 'Failed to save lyrics'],
    ['database exploded', 'Something went wrong while saving.'],
  ])('save error %j shows %j', async (thrown, shown) => {
    outcome = fail(thrown);
    renderUi(<LyricsStudio track={track} lyrics={null} onDone={() => undefined} />);
    await userEvent.type(screen.getByLabelText('Lyric line 1'), 'Hello');
    await userEvent.click(screen.getByRole('button', { name: 'Save lyrics' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(shown);
  });

  it('saves the typed lines with their times and returns to view mode', async () => {
    const onDone = vi.fn();
    renderUi(<LyricsStudio track={track} lyrics={null} onDone={onDone} />);
    await userEvent.clear(screen.getByLabelText('Timestamp of line 1'));
    await userEvent.type(screen.getByLabelText('Timestamp of line 1'), '1:05');
    await userEvent.type(screen.getByLabelText('Lyric line 1'), '  Later  {Enter}');
    expect(screen.getByLabelText('Timestamp of line 2')).toHaveValue('01:09');
    expect(screen.getByLabelText('Lyric line 2')).toHaveFocus();
    await userEvent.type(screen.getByLabelText('Lyric line 2'), 'Sooner');
    await userEvent.clear(screen.getByLabelText('Timestamp of line 2'));
    await userEvent.type(screen.getByLabelText('Timestamp of line 2'), 'oops');
    await userEvent.click(screen.getByRole('button', { name: 'Save lyrics' }));
    expect(calls[0]).toEqual([
      track.id,
      [
        expect.objectContaining({ text: '  Later  ', timestamp: 65 }),
        expect.objectContaining({ text: 'Sooner', timestamp: 0 }),
      ],
      { isSynced: true },
    ]);
    expect(onDone).toHaveBeenCalled();
  });

  it('stamping needs this track to be playing', () => {
    renderUi(<LyricsStudio track={track} lyrics={null} onDone={() => undefined} />);
    expect(
      screen.getByRole('button', { name: 'Stamp line 1 with the current playback time' }),
    ).toBeDisabled();
  });
});
