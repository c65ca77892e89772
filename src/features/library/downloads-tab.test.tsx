/**
 * The Downloads tab (docs/offline.md, "Downloads view"): storage figures, the queue with its
 * progress and per-file and overall pause/resume/cancel, the out-of-space message, 'Remove all
 * downloads' (confirmed), the empty state. The data layer's hooks and the manager's actions are
 * the test's: what the tab shows for a state, and what it asks for.
 */
import { MantineProvider } from '@mantine/core';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { beforeEach, expect, it, vi } from 'vitest';
import type { Download, Track } from '@/data';
import { DownloadsTab } from './downloads-tab';

const QUOTA =
  'Not enough storage space on this device. Remove some downloads or free up space, then try again.';
const MB = 1024 * 1024;

const state = vi.hoisted(() => ({
  downloads: [] as Download[],
  storage: {
    usage: null as number | null,
    quota: null as number | null,
    persisted: null as boolean | null,
  },
  manager: { pause: vi.fn(), resume: vi.fn() },
  removeDownload: vi.fn(() => Promise.resolve()),
  removeAllDownloads: vi.fn(() => Promise.resolve()),
  requestPersistentStorage: vi.fn(() => Promise.resolve(true)),
}));

vi.mock('@/data', () => ({
  QUOTA_MESSAGE:
    'Not enough storage space on this device. Remove some downloads or free up space, then try again.',
  currentDownloads: () => state.manager,
  removeAllDownloads: state.removeAllDownloads,
  removeDownload: state.removeDownload,
  requestPersistentStorage: state.requestPersistentStorage,
  setDownloadQuality: vi.fn(),
  useAllTracks: () =>
    ['a', 'b', 'c', 'd'].map((id) => ({ id, title: `Song ${id.toUpperCase()}` }) as Track),
  useDownloadQuality: () => 'high',
  useDownloads: () => state.downloads,
  useProfile: () => ({ subscriptionPlan: 'premium' }),
  useProfileOrLoading: () => ({ subscriptionPlan: 'premium' }),
  useStorageFigures: () => state.storage,
}));
vi.mock('@/features/catalogue', () => ({
  useCurrentUserId: () => 'me',
  DownloadQualityControl: () => null,
  TrackList: ({ tracks, label, empty }: { tracks: Track[]; label: string; empty: ReactNode }) =>
    tracks.length === 0 ? (
      empty
    ) : (
      <ul aria-label={label}>
        {tracks.map((t) => (
          <li key={t.id}>{t.title}</li>
        ))}
      </ul>
    ),
}));
vi.mock('@/components/toast', () => ({ toast: { success: vi.fn(), error: vi.fn() } }));

const row = (trackId: string, status: Download['state'], extra: Partial<Download> = {}) =>
  ({
    userId: 'me',
    trackId,
    state: status,
    receivedBytes: 0,
    totalBytes: null,
    quality: 'high',
    error: null,
    queuedAt: `2026-11-27T00:00:0${trackId.charCodeAt(0) - 97}.000Z`,
    completedAt: null,
    sources: ['playlist:p1'],
    ...extra,
  }) satisfies Download;

beforeEach(() => {
  state.downloads = [];
  state.storage = { usage: null, quota: null, persisted: null };
  vi.clearAllMocks();
});

const renderTab = () =>
  render(
    <MantineProvider env="test">
      <DownloadsTab />
    </MantineProvider>,
  );

it('says what downloads use, what is left, and whether the browser keeps them', () => {
  state.downloads = [
    row('a', 'done', { receivedBytes: 3 * MB, totalBytes: 3 * MB }),
    row('b', 'done', { receivedBytes: 2 * MB, totalBytes: 2 * MB }),
  ];
  state.storage = { usage: 6 * MB, quota: 1030 * MB, persisted: false };
  renderTab();
  expect(screen.getByTestId('downloads-storage')).toHaveTextContent(
    'Downloads use 5.0 MB · 1.0 GB left on this device',
  );
  expect(
    screen.getByText('The browser may clear downloads when the device runs low on space.'),
  ).toBeInTheDocument();
  fireEvent.click(screen.getByRole('button', { name: 'Keep downloads' }));
  expect(state.requestPersistentStorage).toHaveBeenCalled();
  expect(screen.getByRole('list', { name: 'Downloaded tracks' })).toHaveTextContent('Song A');
});

it('a browser that keeps them: no Keep downloads button', () => {
  state.downloads = [row('a', 'done', { receivedBytes: MB })];
  state.storage = { usage: MB, quota: 100 * MB, persisted: true };
  renderTab();
  expect(
    screen.getByText('Downloads are kept when the device runs low on space.'),
  ).toBeInTheDocument();
  expect(screen.queryByRole('button', { name: 'Keep downloads' })).toBeNull();
});

it('the queue: overall and per-file progress, pause, resume and cancel', () => {
  state.downloads = [
    row('a', 'done', { receivedBytes: MB, totalBytes: MB }),
    row('b', 'downloading', { receivedBytes: MB, totalBytes: 4 * MB }),
    row('c', 'paused', { receivedBytes: 2 * MB, totalBytes: 4 * MB }),
    row('d', 'queued'),
  ];
  renderTab();
  const queue = screen.getByRole('region', { name: 'Download queue' });
  expect(queue).toHaveTextContent('Queue · 1 of 4 downloaded');
  expect(
    within(queue).getByRole('progressbar', { name: 'Overall download progress' }),
  ).toHaveAttribute('aria-valuenow', '25');
  expect(within(queue).getByRole('progressbar', { name: 'Song B: 25%' })).toBeInTheDocument();
  expect(within(queue).getByRole('progressbar', { name: 'Song C: 50%' })).toBeInTheDocument();
  expect(queue).toHaveTextContent('Downloading');
  expect(queue).toHaveTextContent('Paused');
  expect(queue).toHaveTextContent('Waiting');

  fireEvent.click(within(queue).getByRole('button', { name: 'Pause Song B' }));
  expect(state.manager.pause).toHaveBeenCalledWith('b');
  fireEvent.click(within(queue).getByRole('button', { name: 'Resume Song C' }));
  expect(state.manager.resume).toHaveBeenCalledWith('c');
  fireEvent.click(within(queue).getByRole('button', { name: 'Cancel Song D' }));
  expect(state.removeDownload).toHaveBeenCalledWith('d');
  fireEvent.click(within(queue).getByRole('button', { name: 'Pause all' }));
  expect(state.manager.pause).toHaveBeenLastCalledWith();
  fireEvent.click(within(queue).getByRole('button', { name: 'Resume all' }));
  expect(state.manager.resume).toHaveBeenLastCalledWith();
});

it('a full device: the out-of-space message as an alert, and the failed file can be resumed', () => {
  state.downloads = [row('a', 'failed', { error: QUOTA }), row('b', 'queued')];
  renderTab();
  const alert = screen.getByRole('alert');
  expect(alert).toHaveTextContent('Out of space');
  expect(alert).toHaveTextContent(QUOTA);
  expect(screen.getByRole('region', { name: 'Download queue' })).toHaveTextContent('Failed');
  fireEvent.click(screen.getByRole('button', { name: 'Resume Song A' }));
  expect(state.manager.resume).toHaveBeenCalledWith('a');
});

it('Remove all downloads asks first, then removes them', async () => {
  state.downloads = [row('a', 'done', { receivedBytes: MB })];
  renderTab();
  fireEvent.click(screen.getByRole('button', { name: 'Remove all downloads' }));
  const dialog = await screen.findByRole('dialog', { name: 'Remove all downloads' });
  expect(state.removeAllDownloads).not.toHaveBeenCalled();
  fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
  await waitFor(() => expect(state.removeAllDownloads).toHaveBeenCalled());
});

it('nothing downloaded: the empty state, and nothing to remove', () => {
  renderTab();
  expect(screen.getByText('No downloads yet.')).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Remove all downloads' })).toBeDisabled();
  expect(screen.queryByRole('region', { name: 'Download queue' })).toBeNull();
});
