import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { beforeEach, expect, it, vi } from 'vitest';
import type { Playlist, Track } from '@/data';
import { LikedTab } from './liked-tab';
import { PlaylistsTab } from './playlists-tab';

// The tabs' reads, controlled by the test: undefined is a live query that has not answered.
const reads = vi.hoisted(() => ({
  liked: undefined as unknown[] | undefined,
  playlists: undefined as unknown[] | undefined,
  mirrorLoading: false,
}));

vi.mock('@/data', () => ({
  getRepositories: () => ({}),
  useLikedTracksOrLoading: () => reads.liked,
  usePlaylistsOrLoading: () => reads.playlists,
  useMirrorLoading: () => reads.mirrorLoading,
}));

vi.mock('@/features/catalogue', () => ({
  useCurrentUserId: () => 'me',
  TrackList: ({ tracks, label, empty }: { tracks: Track[]; label: string; empty: ReactNode }) =>
    tracks.length === 0 ? empty : <ul aria-label={label}>{tracks.map((t) => t.title)}</ul>,
  PlaylistCard: ({ playlist }: { playlist: Playlist }) => <span>{playlist.name}</span>,
}));

beforeEach(() => {
  reads.liked = reads.playlists = undefined;
  reads.mirrorLoading = false;
});

const renderUi = (ui: ReactNode) => render(<MantineProvider env="test">{ui}</MantineProvider>);

it('shows a loader, not the empty state, while a list query has not answered', () => {
  renderUi(
    <>
      <LikedTab />
      <PlaylistsTab onCreate={() => undefined} />
    </>,
  );
  expect(screen.getByLabelText('Loading Liked Songs')).toBeInTheDocument();
  expect(screen.getByLabelText('Loading Playlists')).toBeInTheDocument();
  expect(screen.queryByText("You haven't liked any songs yet.")).toBeNull();
  expect(screen.queryByText('No playlists yet.')).toBeNull();
});

it('an empty answer during the first download of the mirror still loads; after it, the empty state', () => {
  reads.liked = [];
  reads.mirrorLoading = true;
  const { rerender } = renderUi(<LikedTab />);
  expect(screen.getByLabelText('Loading Liked Songs')).toBeInTheDocument();
  reads.mirrorLoading = false;
  rerender(
    <MantineProvider env="test">
      <LikedTab />
    </MantineProvider>,
  );
  expect(screen.queryByLabelText('Loading Liked Songs')).toBeNull();
  expect(screen.getByText("You haven't liked any songs yet.")).toBeInTheDocument();
});

it('a late answer with rows replaces the loader with the list, mirror download or not', () => {
  reads.mirrorLoading = true;
  const { rerender } = renderUi(<PlaylistsTab onCreate={() => undefined} />);
  expect(screen.getByLabelText('Loading Playlists')).toBeInTheDocument();
  reads.playlists = [{ id: 'p1', name: 'Night Drive' }];
  rerender(
    <MantineProvider env="test">
      <PlaylistsTab onCreate={() => undefined} />
    </MantineProvider>,
  );
  expect(screen.queryByLabelText('Loading Playlists')).toBeNull();
  expect(screen.getByRole('list', { name: 'Playlists' })).toHaveTextContent('Night Drive');
});
