import { IconHeart } from '@tabler/icons-react';
import { toast } from '@/components/toast';
import { getRepositories, useLikedTracksOrLoading, type Track } from '@/data';
import { Group, Stack } from '@mantine/core';
import { useMemo } from 'react';
import { DownloadButton, TrackList, useCurrentUserId } from '@/features/catalogue';
import { EmptyState } from '@/components/empty-state';
import { ListLoader } from './list-loader';
import { useLoadedList } from './use-loaded-list';

async function unlike(track: Track) {
  try {
    await getRepositories().likes.toggle(track.id);
    toast.success(`Removed ${track.title} from Liked Songs`);
  } catch (error) {
    console.error('Failed to unlike track', error);
    toast.error('Failed to unlike track');
  }
}

/** Liked Songs: newest like first; the row menu unlikes. */
export function LikedTab() {
  const userId = useCurrentUserId();
  const tracks = useLoadedList(useLikedTracksOrLoading(userId));
  const trackIds = useMemo(() => (tracks ?? []).map((t) => t.id), [tracks]);
  if (!tracks) return <ListLoader label="Liked Songs" />;
  return (
    <Stack gap="md">
      {tracks.length > 0 ? (
        <Group justify="flex-end">
          <DownloadButton trackIds={trackIds} source="liked" name="Liked Songs" />
        </Group>
      ) : null}
      <TrackList
        tracks={tracks}
        label="Liked Songs"
        onRemove={(track) => void unlike(track)}
        removeLabel="Remove from Liked Songs"
        empty={
          <EmptyState
            icon={<IconHeart size={28} />}
            message="You haven't liked any songs yet."
            hint="Tap the heart on any track and it will be waiting for you here."
          />
        }
      />
    </Stack>
  );
}
