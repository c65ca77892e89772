import { ActionIcon, Box, Button, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import {
  IconCloudUpload,
  IconPencil,
  IconRefresh,
  IconTrash,
  IconUpload,
} from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import {
  deleteConfirmation,
  LazyConfirmDeleteDialog,
} from '@/components/lazy-confirm-delete-dialog';
import { LazyOverlay } from '@/components/lazy-overlay';
import { EmptyState } from '@/components/empty-state';
import { ButtonLink } from '@/components/router-links';
import { toast } from '@/components/toast';
import { useMirrorLoading, useUserTracksOrLoading, type Track } from '@/data';
import { CoverArt, TrackList, useCurrentUserId } from '@/features/catalogue';
import { UploadStatusBadge } from './upload-status-badge';
import { useRefreshProcessing } from './use-refresh-processing';
import { lazyChunk } from '@/lib/lazy-chunk';

// The uploads' calls (and the upload client they share a chunk with) load on the first Delete
// or Retry.
const loadTrackUploads = () => import('@/data/repositories/track-uploads');
// The edit form's Modal (with ScrollArea and @floating-ui) loads on the first Edit, not with
// /library.
const EditTrackModal = lazyChunk(() =>
  import('./edit-track-modal').then((m) => ({ default: m.EditTrackModal })),
);

/**
 * Your Uploads (issue 14): the artist's tracks with their status. Ready ones are a track list
 * that plays; those still processing or failed are listed above it with their stage or reason,
 * and a failed one can be retried. Every track can be edited and deleted (with confirmation).
 */
export function YourUploads() {
  const userId = useCurrentUserId();
  const read = useUserTracksOrLoading(userId);
  // Empty while this device's first download of the mirror runs is not known to be empty.
  const mirrorLoading = useMirrorLoading();
  const tracks = read && (read.length || !mirrorLoading) ? read : undefined;
  useRefreshProcessing(tracks);
  const [editing, setEditing] = useState<Track | null>(null);
  const [deleting, setDeleting] = useState<Track | null>(null);

  if (!tracks || !userId)
    return (
      <Group justify="center" py="xl">
        <Loader aria-label="Loading Your Uploads" />
      </Group>
    );
  const pending = tracks.filter((t) => t.status !== 'ready');
  const ready = tracks.filter((t) => t.status === 'ready');

  const remove = async (track: Track) => {
    try {
      await (await loadTrackUploads()).deleteOwnTrack(track.id);
      toast.success(`Deleted ${track.title}`);
      setDeleting(null);
    } catch (e) {
      console.warn('Failed to delete track', e);
      toast.error('Failed to delete track');
    }
  };

  const actions = (track: Track) => (
    <>
      <ActionIcon
        variant="subtle"
        color="gray"
        radius="xl"
        aria-label={`Edit ${track.title}`}
        onClick={(e) => {
          e.stopPropagation();
          setEditing(track);
        }}
      >
        <IconPencil size={16} aria-hidden />
      </ActionIcon>
      <ActionIcon
        variant="subtle"
        color="red"
        radius="xl"
        aria-label={`Delete ${track.title}`}
        onClick={(e) => {
          e.stopPropagation();
          setDeleting(track);
        }}
      >
        <IconTrash size={16} aria-hidden />
      </ActionIcon>
    </>
  );

  return (
    <Stack gap="lg">
      {tracks.length > 0 && (
        <Group justify="flex-end">
          <ButtonLink
            to="/upload"
            variant="default"
            radius="xl"
            leftSection={<IconUpload size={16} aria-hidden />}
          >
            Upload new track
          </ButtonLink>
        </Group>
      )}
      {pending.length > 0 && (
        <Stack gap="xs" component="section" aria-labelledby="uploads-in-progress">
          <Title order={2} size="h5" id="uploads-in-progress">
            Processing and failed
          </Title>
          {pending.map((track) => (
            <PendingUpload key={track.id} track={track} actions={actions(track)} />
          ))}
        </Stack>
      )}
      <TrackList
        tracks={ready}
        label="Your Uploads"
        renderExtra={(track) => (
          <>
            {/* The wrapper is the flex item of the row's actions: it must not shrink, or the
                badge (whose label may ellipsize) is squeezed to an empty square. */}
            <Box visibleFrom="sm" style={{ flexShrink: 0, minWidth: 'max-content' }}>
              <UploadStatusBadge track={track} />
            </Box>
            {actions(track)}
          </>
        )}
        empty={
          pending.length ? null : (
            <EmptyState
              icon={<IconCloudUpload size={28} />}
              message="You haven't uploaded any tracks yet."
              hint="Share your music with listeners everywhere: upload a track with its cover and lyrics."
              action={
                <ButtonLink to="/upload" leftSection={<IconUpload size={16} aria-hidden />}>
                  Upload new track
                </ButtonLink>
              }
            />
          )
        }
      />
      <LazyOverlay opened={Boolean(editing)}>
        <EditTrackModal track={editing} userId={userId} onClose={() => setEditing(null)} />
      </LazyOverlay>
      <LazyConfirmDeleteDialog
        title="Delete track"
        message={deleting ? deleteConfirmation(deleting.title) : ''}
        opened={Boolean(deleting)}
        onClose={() => setDeleting(null)}
        onConfirm={() => (deleting ? remove(deleting) : Promise.resolve())}
      />
    </Stack>
  );
}

function PendingUpload({ track, actions }: { track: Track; actions: ReactNode }) {
  const [retrying, setRetrying] = useState(false);
  const retry = async () => {
    setRetrying(true);
    try {
      await (await loadTrackUploads()).retryProcessing(track.id);
    } catch (e) {
      toast.error(e instanceof Error && e.message ? e.message : 'Failed to retry processing');
    } finally {
      setRetrying(false);
    }
  };
  return (
    <Paper p="sm" radius="md" withBorder data-testid="pending-upload">
      <Group gap="sm" wrap="nowrap" align="center">
        <CoverArt src={track.coverImage} seed={track.id} size={48} />
        <Stack gap={4} style={{ minWidth: 0, flex: 1 }}>
          <Text fw={600} size="sm" truncate>
            {track.title}
          </Text>
          <Group gap="xs">
            <UploadStatusBadge track={track} />
          </Group>
          {track.status === 'failed' && track.statusReason && (
            <Text size="xs" c="red.3">
              {track.statusReason}
            </Text>
          )}
        </Stack>
        <Group gap={4} wrap="nowrap">
          {track.status === 'failed' && (
            <Button
              size="xs"
              variant="light"
              radius="xl"
              leftSection={<IconRefresh size={14} aria-hidden />}
              loading={retrying}
              onClick={() => void retry()}
            >
              Retry
            </Button>
          )}
          {actions}
        </Group>
      </Group>
    </Paper>
  );
}
