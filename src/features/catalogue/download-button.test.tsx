/**
 * The download button in its states (docs/offline.md, "Screens"): the upgrade prompt for a plan
 * without offline listening, then for Premium 'Download', 'Downloading n/N', 'Downloaded' (a
 * press removes it), for a track and for a collection. The data layer's hooks and actions are
 * the test's: what the button shows for a given state, and what it asks for on a press.
 */
import { MantineProvider } from '@mantine/core';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { beforeEach, expect, it, vi } from 'vitest';
import type { Download } from '@/data';
import { DownloadButton } from './download-button';

const PREMIUM_ONLY = 'Downloads are part of Premium. Upgrade to listen offline.';

const state = vi.hoisted(() => ({
  plan: 'premium',
  /** The profile's first read has answered. */
  profileRead: true,
  downloads: [] as Download[],
  collectionDownloaded: false,
  downloadTracks: vi.fn(() => Promise.resolve()),
  downloadCollection: vi.fn(() => Promise.resolve()),
  removeCollection: vi.fn(() => Promise.resolve()),
  removeDownload: vi.fn(() => Promise.resolve()),
  toastError: vi.fn(),
}));

vi.mock('@/data', () => ({
  PREMIUM_ONLY_MESSAGE: 'Downloads are part of Premium. Upgrade to listen offline.',
  useProfileOrLoading: () => (state.profileRead ? { subscriptionPlan: state.plan } : undefined),
  useDownloads: () => state.downloads,
  useCollectionDownloaded: () => state.collectionDownloaded,
  downloadTracks: state.downloadTracks,
  downloadCollection: state.downloadCollection,
  removeCollection: state.removeCollection,
  removeDownload: state.removeDownload,
}));
// The server sells paid plans (PAYMENTS=off: src/features/payments-off-surfaces.test.tsx).
vi.mock('@/data/payments-status', () => ({
  usePaymentsStatus: () => ({ known: true, offersUpgrades: true, notice: null }),
}));
vi.mock('./use-current-user-id', () => ({ useCurrentUserId: () => 'me' }));
vi.mock('@/components/toast', () => ({ toast: { error: state.toastError } }));
vi.mock('@/components/router-links', () => ({
  ButtonLink: ({ to, children }: { to: string; children: ReactNode }) => (
    <a href={to}>{children}</a>
  ),
}));

const row = (trackId: string, status: Download['state'], sources = ['playlist:p1']): Download => ({
  userId: 'me',
  trackId,
  state: status,
  receivedBytes: 0,
  totalBytes: null,
  quality: null,
  error: null,
  queuedAt: '2026-11-27T00:00:00.000Z',
  completedAt: null,
  sources,
});

beforeEach(() => {
  state.plan = 'premium';
  state.profileRead = true;
  state.downloads = [];
  state.collectionDownloaded = false;
  vi.clearAllMocks();
});

const renderButton = (ui: ReactNode) => render(<MantineProvider env="test">{ui}</MantineProvider>);
const playlistButton = () => (
  <DownloadButton trackIds={['a', 'b']} source="playlist:p1" name="Road Trip" />
);

it('a plan without offline listening gets the upgrade prompt, and nothing is downloaded', async () => {
  state.plan = 'free';
  renderButton(playlistButton());
  fireEvent.click(screen.getByRole('button', { name: 'Download Road Trip' }));
  const dialog = await screen.findByRole('dialog', { name: 'Listen offline' });
  expect(dialog).toHaveTextContent(PREMIUM_ONLY);
  expect(screen.getByRole('link', { name: 'Upgrade to Premium' })).toHaveAttribute(
    'href',
    '/subscription',
  );
  expect(state.downloadCollection).not.toHaveBeenCalled();
  expect(state.downloadTracks).not.toHaveBeenCalled();
});

it('while the plan is not known the button cannot be pressed (no prompt that closes by itself)', () => {
  state.profileRead = false;
  const { rerender } = renderButton(playlistButton());
  const button = screen.getByRole('button', { name: 'Download Road Trip' });
  expect(button).toBeDisabled();
  fireEvent.click(button);
  expect(screen.queryByRole('dialog')).toBeNull();
  // The plan arrives (Premium): the real button, which downloads.
  state.profileRead = true;
  rerender(<MantineProvider env="test">{playlistButton()}</MantineProvider>);
  fireEvent.click(screen.getByRole('button', { name: 'Download Road Trip' }));
  expect(state.downloadCollection).toHaveBeenCalled();
});

it('Premium: Download asks for the collection, kept in sync', () => {
  renderButton(playlistButton());
  fireEvent.click(screen.getByRole('button', { name: 'Download Road Trip' }));
  expect(state.downloadCollection).toHaveBeenCalledWith('playlist:p1', ['a', 'b']);
  expect(screen.queryByRole('dialog')).toBeNull();
});

it('a downloading collection counts its tracks done; once all are in, Downloaded', () => {
  state.collectionDownloaded = true;
  state.downloads = [row('a', 'downloading'), row('b', 'queued', ['liked', 'playlist:p1'])];
  const { rerender } = renderButton(playlistButton());
  expect(screen.getByRole('button', { name: 'Remove download of Road Trip' })).toHaveTextContent(
    'Downloading 0/2',
  );
  state.downloads = [row('a', 'done'), row('b', 'downloading', ['liked', 'playlist:p1'])];
  rerender(<MantineProvider env="test">{playlistButton()}</MantineProvider>);
  expect(screen.getByRole('button', { name: 'Remove download of Road Trip' })).toHaveTextContent(
    'Downloading 1/2',
  );
  state.downloads = [row('a', 'done'), row('b', 'done', ['liked', 'playlist:p1'])];
  rerender(<MantineProvider env="test">{playlistButton()}</MantineProvider>);
  const done = screen.getByRole('button', { name: 'Remove download of Road Trip' });
  expect(done).toHaveTextContent('Downloaded');
  fireEvent.click(done);
  expect(state.removeCollection).toHaveBeenCalledWith('playlist:p1');
});

it('a track: Download, Downloading, Downloaded, and a press removes it', () => {
  const track = () => <DownloadButton trackIds={['a']} source="track" name="Midnight Drive" />;
  const { rerender } = renderButton(track());
  fireEvent.click(screen.getByRole('button', { name: 'Download Midnight Drive' }));
  expect(state.downloadTracks).toHaveBeenCalledWith(['a'], 'track');
  state.downloads = [row('a', 'downloading', ['track'])];
  rerender(<MantineProvider env="test">{track()}</MantineProvider>);
  expect(
    screen.getByRole('button', { name: 'Remove download of Midnight Drive' }),
  ).toHaveTextContent(/^Downloading$/);
  state.downloads = [row('a', 'done', ['track'])];
  rerender(<MantineProvider env="test">{track()}</MantineProvider>);
  const done = screen.getByRole('button', { name: 'Remove download of Midnight Drive' });
  expect(done).toHaveTextContent('Downloaded');
  fireEvent.click(done);
  expect(state.removeDownload).toHaveBeenCalledWith('a');
});

it("the server's refusal is shown, not swallowed", async () => {
  state.downloadTracks.mockRejectedValueOnce(new Error(PREMIUM_ONLY));
  renderButton(<DownloadButton trackIds={['a']} source="track" name="Midnight Drive" />);
  fireEvent.click(screen.getByRole('button', { name: 'Download Midnight Drive' }));
  await waitFor(() => expect(state.toastError).toHaveBeenCalledWith(PREMIUM_ONLY));
});

it('an empty collection cannot be downloaded', () => {
  renderButton(<DownloadButton trackIds={[]} source="liked" name="Liked Songs" />);
  expect(screen.getByRole('button', { name: 'Download Liked Songs' })).toBeDisabled();
});
