import { MantineProvider } from '@mantine/core';
import { render, screen, within } from '@testing-library/react';
import { expect, it } from 'vitest';
import type { RefusedPlays } from '@/data/remote/admin-remote';
import { RefusedPlaysView } from './refused-plays';

const show = (data: RefusedPlays | undefined) =>
  render(
    <MantineProvider env="test">
      <RefusedPlaysView data={data} />
    </MantineProvider>,
  );

it('lists the top refused listeners and tracks with their counts and reason in words', () => {
  show({
    listeners: [
      {
        id: 'u1',
        name: 'Play Bot',
        email: 'bot@example.test',
        refused: 15,
        counted: 0,
        topReason: 'no_audio_served',
        lastRefusedAt: '2026-11-25T12:00:00Z',
      },
    ],
    tracks: [
      {
        id: 't1',
        title: 'Harbor Lights',
        artist: 'Neon Harbor',
        refused: 15,
        counted: 2,
        listeners: 1,
        topReason: 'daily_track_limit',
        lastRefusedAt: null,
      },
    ],
  });
  const section = screen.getByRole('region', { name: 'Refused plays' });
  const listeners = within(section).getByRole('table', { name: 'Top refused listeners' });
  const bot = within(listeners).getByRole('row', { name: /Play Bot/ });
  expect(within(bot).getByText('No audio served')).toBeTruthy();
  expect(within(bot).getByRole('cell', { name: '15' })).toBeTruthy();
  const tracks = within(section).getByRole('table', { name: 'Top refused tracks' });
  const track = within(tracks).getByRole('row', { name: /Harbor Lights/ });
  expect(within(track).getByRole('cell', { name: '2' })).toBeTruthy();
});

it('says so when nothing was refused', () => {
  show({ listeners: [], tracks: [] });
  expect(screen.getByText('No refused plays in the last 30 days.')).toBeTruthy();
});
