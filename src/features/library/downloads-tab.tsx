import { ActionIcon, Alert, Button, Group, Paper, Progress, Stack, Text } from '@mantine/core';
import {
  IconDownload,
  IconPlayerPause,
  IconPlayerPlay,
  IconTrash,
  IconX,
} from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { EmptyState } from '@/components/empty-state';
import { LazyConfirmDeleteDialog } from '@/components/lazy-confirm-delete-dialog';
import { toast } from '@/components/toast';
import {
  QUOTA_MESSAGE,
  currentDownloads,
  removeAllDownloads,
  removeDownload,
  requestPersistentStorage,
  useAllTracks,
  useDownloads,
  useStorageFigures,
  type Download,
  type Track,
} from '@/data';
import { DownloadQualityControl, TrackList, useCurrentUserId } from '@/features/catalogue';

const MB = 1024 * 1024;
const size = (bytes: number) =>
  bytes >= 1024 * MB ? `${(bytes / 1024 / MB).toFixed(1)} GB` : `${(bytes / MB).toFixed(1)} MB`;

const STATE_LABEL: Record<Download['state'], string> = {
  queued: 'Waiting',
  downloading: 'Downloading',
  paused: 'Paused',
  done: 'Downloaded',
  failed: 'Failed',
};

/**
 * Downloads (docs/offline.md): storage used and left, persistent storage, quality, the queue
 * with per-track and overall progress, pause/resume/cancel, the downloaded tracks, and
 * 'Remove all downloads'.
 */
export function DownloadsTab() {
  const userId = useCurrentUserId();
  const downloads = useDownloads(userId);
  const tracks = useAllTracks();
  const [confirm, setConfirm] = useState(false);
  const doneCount = downloads.filter((d) => d.state === 'done').length;
  const storage = useStorageFigures(doneCount);
  const byId = useMemo(() => new Map(tracks.map((t) => [t.id, t])), [tracks]);
  const pending = downloads.filter((d) => d.state !== 'done');
  const done = useMemo(
    () =>
      downloads
        .filter((d) => d.state === 'done')
        .map((d) => byId.get(d.trackId))
        .filter((t): t is Track => t !== undefined),
    [downloads, byId],
  );
  const downloadedBytes = downloads
    .filter((d) => d.state === 'done')
    .reduce((sum, d) => sum + d.receivedBytes, 0);
  const quotaFull = downloads.some((d) => d.error === QUOTA_MESSAGE);
  const overall = downloads.length ? (doneCount / downloads.length) * 100 : 0;
  const m = currentDownloads();

  return (
    <Stack gap="lg">
      <Paper withBorder radius="md" p="md">
        <Stack gap="sm">
          <Group justify="space-between" wrap="wrap" gap="sm">
            <div>
              <Text fw={600}>Storage</Text>
              <Text size="sm" c="dimmed" data-testid="downloads-storage">
                Downloads use {size(downloadedBytes)}
                {storage.quota !== null && storage.usage !== null
                  ? ` · ${size(Math.max(0, storage.quota - storage.usage))} left on this device`
                  : ''}
              </Text>
              <Text size="xs" c="dimmed">
                {storage.persisted
                  ? 'Downloads are kept when the device runs low on space.'
                  : 'The browser may clear downloads when the device runs low on space.'}
              </Text>
            </div>
            <Group gap="sm">
              {storage.persisted === false ? (
                <Button
                  variant="default"
                  size="xs"
                  onClick={() =>
                    void requestPersistentStorage().then((ok) =>
                      ok
                        ? toast.success('Downloads will be kept')
                        : toast.error('The browser did not allow persistent storage'),
                    )
                  }
                >
                  Keep downloads
                </Button>
              ) : null}
              <Button
                color="red"
                variant="light"
                size="xs"
                leftSection={<IconTrash size={14} aria-hidden />}
                disabled={downloads.length === 0}
                onClick={() => setConfirm(true)}
              >
                Remove all downloads
              </Button>
            </Group>
          </Group>
          <DownloadQualityControl labelId="download-quality-label" />
        </Stack>
      </Paper>

      {quotaFull ? (
        <Alert color="red" role="alert" title="Out of space">
          {QUOTA_MESSAGE}
        </Alert>
      ) : null}

      {pending.length > 0 ? (
        <Stack gap="xs" aria-label="Download queue" component="section">
          <Group justify="space-between">
            <Text fw={600}>
              Queue · {doneCount} of {downloads.length} downloaded
            </Text>
            <Group gap="xs">
              <Button
                size="xs"
                variant="default"
                leftSection={<IconPlayerPause size={14} aria-hidden />}
                onClick={() => void m?.pause()}
              >
                Pause all
              </Button>
              <Button
                size="xs"
                variant="default"
                leftSection={<IconPlayerPlay size={14} aria-hidden />}
                onClick={() => void m?.resume()}
              >
                Resume all
              </Button>
            </Group>
          </Group>
          <Progress value={overall} aria-label="Overall download progress" />
          {pending.map((d) => (
            <QueueRow key={d.trackId} download={d} title={byId.get(d.trackId)?.title} />
          ))}
        </Stack>
      ) : null}

      <TrackList
        tracks={done}
        label="Downloaded tracks"
        onRemove={(track) => void removeDownload(track.id)}
        removeLabel="Remove download"
        empty={
          pending.length === 0 ? (
            <EmptyState
              icon={<IconDownload size={28} />}
              message="No downloads yet."
              hint="Download a track, a playlist or your Liked Songs to listen offline."
            />
          ) : null
        }
      />
      <LazyConfirmDeleteDialog
        opened={confirm}
        onClose={() => setConfirm(false)}
        title="Remove all downloads"
        message="Every downloaded track is removed from this device. You can download them again."
        onConfirm={() =>
          removeAllDownloads()
            .then(() => void toast.success('Downloads removed'))
            .catch(() => void toast.error('Failed to remove downloads'))
            .finally(() => setConfirm(false))
        }
      />
    </Stack>
  );
}

function QueueRow({ download: d, title = 'Track' }: { download: Download; title?: string }) {
  const m = currentDownloads();
  const percent = d.totalBytes ? Math.min(100, (d.receivedBytes / d.totalBytes) * 100) : 0;
  return (
    <Paper withBorder radius="sm" p="xs">
      <Group justify="space-between" wrap="nowrap" gap="sm">
        <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
          <Group gap="xs" wrap="nowrap">
            <Text size="sm" fw={600} truncate>
              {title}
            </Text>
            <Text size="xs" c={d.state === 'failed' ? 'red.4' : 'dimmed'} style={{ flex: 'none' }}>
              {STATE_LABEL[d.state]}
            </Text>
          </Group>
          <Progress size="sm" value={percent} aria-label={`${title}: ${Math.round(percent)}%`} />
          {d.error ? (
            <Text size="xs" c="red.4">
              {d.error}
            </Text>
          ) : null}
        </Stack>
        {d.state === 'paused' || d.state === 'failed' ? (
          <ActionIcon
            variant="subtle"
            aria-label={`Resume ${title}`}
            onClick={() => void m?.resume(d.trackId)}
          >
            <IconPlayerPlay size={16} aria-hidden />
          </ActionIcon>
        ) : (
          <ActionIcon
            variant="subtle"
            aria-label={`Pause ${title}`}
            onClick={() => void m?.pause(d.trackId)}
          >
            <IconPlayerPause size={16} aria-hidden />
          </ActionIcon>
        )}
        <ActionIcon
          variant="subtle"
          color="red"
          aria-label={`Cancel ${title}`}
          onClick={() => void removeDownload(d.trackId)}
        >
          <IconX size={16} aria-hidden />
        </ActionIcon>
      </Group>
    </Paper>
  );
}
