import { Button } from '@mantine/core';
import { IconCircleCheckFilled, IconDownload, IconLock } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { LazyOverlay } from '@/components/lazy-overlay';
import { toast } from '@/components/toast';
import {
  downloadCollection,
  downloadTracks,
  removeCollection,
  removeDownload,
  useCollectionDownloaded,
  useDownloads,
  useProfileOrLoading,
} from '@/data';
import { PLANS } from '@/lib/plans';
import { useCurrentUserId } from './use-current-user-id';
import { lazyChunk } from '@/lib/lazy-chunk';

const DownloadUpgradePrompt = lazyChunk(() =>
  import('./download-upgrade-prompt').then((m) => ({ default: m.DownloadUpgradePrompt })),
);

export interface DownloadButtonProps {
  /** The tracks it downloads: one track, a playlist's, Liked Songs'. */
  trackIds: readonly string[];
  /** 'track', 'playlist:<id>' or 'liked': a collection stays in sync once downloaded. */
  source: string;
  /** What it downloads, for the screen reader ('Download Midnight Drive'). */
  name: string;
  size?: 'sm' | 'md';
}

/**
 * Download for Premium listeners (docs/offline.md): 'Download', then the progress, then
 * 'Downloaded' (a press removes it). Other plans get the upgrade prompt, not a broken button;
 * the server decides either way.
 */
export function DownloadButton({ trackIds, source, name, size = 'sm' }: DownloadButtonProps) {
  const userId = useCurrentUserId();
  // Undefined while the profile's first read has not answered: the plan is not known yet.
  const profile = useProfileOrLoading(userId);
  const plan = profile?.subscriptionPlan;
  const allowed = PLANS.find((p) => p.id === plan)?.offlineDownloads ?? false;
  const [prompt, setPrompt] = useState(false);
  const collection = source !== 'track';
  const synced = useCollectionDownloaded(userId, collection ? source : 'track');
  const downloads = useDownloads(userId);
  // A collection's downloads are those it asked for (the download manager keeps them in sync
  // with its tracks, on screen or not); a track's, its own.
  const mine = useMemo(() => {
    const wanted = new Set(trackIds);
    return downloads.filter((d) =>
      collection ? d.sources.includes(source) && wanted.has(d.trackId) : wanted.has(d.trackId),
    );
  }, [downloads, trackIds, collection, source]);
  const done = mine.filter((d) => d.state === 'done').length;
  const wantedAll = collection ? synced : mine.length > 0;
  const total = collection ? mine.length : trackIds.length;
  const complete = total > 0 && done === total;

  if (!allowed) {
    return (
      <>
        <Button
          size={size}
          radius="xl"
          variant="default"
          leftSection={<IconLock size={16} aria-hidden />}
          // Not clickable until the plan is known: a click in that moment opened the upgrade
          // prompt, which closed by itself once the plan said Premium (the click was lost).
          disabled={profile === undefined}
          onClick={() => setPrompt(true)}
          aria-label={`Download ${name}`}
        >
          Download
        </Button>
        <LazyOverlay opened={prompt}>
          <DownloadUpgradePrompt opened={prompt} onClose={() => setPrompt(false)} />
        </LazyOverlay>
      </>
    );
  }

  const start = () => {
    const run = collection
      ? downloadCollection(source, trackIds)
      : downloadTracks(trackIds, source);
    run.catch((error: unknown) =>
      toast.error(error instanceof Error ? error.message : 'Download failed. Try again.'),
    );
  };
  const remove = () => {
    const run = collection ? removeCollection(source) : removeDownload(trackIds[0] ?? '');
    run.catch(() => toast.error('Failed to remove the download'));
  };

  if (!wantedAll) {
    return (
      <Button
        size={size}
        radius="xl"
        variant="default"
        leftSection={<IconDownload size={16} aria-hidden />}
        onClick={start}
        disabled={trackIds.length === 0}
        aria-label={`Download ${name}`}
      >
        Download
      </Button>
    );
  }
  return (
    <Button
      size={size}
      radius="xl"
      variant="light"
      color={complete ? 'ember' : 'gray'}
      leftSection={
        complete ? (
          <IconCircleCheckFilled size={16} aria-hidden />
        ) : (
          <IconDownload size={16} aria-hidden />
        )
      }
      onClick={remove}
      aria-label={`Remove download of ${name}`}
    >
      {complete ? 'Downloaded' : collection ? `Downloading ${done}/${total}` : 'Downloading'}
    </Button>
  );
}
