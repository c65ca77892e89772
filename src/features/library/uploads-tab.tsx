import { Button } from '@mantine/core';
import { IconCloudUpload, IconUpload } from '@tabler/icons-react';
import { useUserTracksOrLoading } from '@/data';
import { TrackList, useCurrentUserId } from '@/features/catalogue';
import { EmptyState } from '@/components/empty-state';
import { ListLoader } from './list-loader';
import { useLoadedList } from './use-loaded-list';

/** Your Uploads: the user's own tracks, newest first (no removal here: nothing deletes yet). */
export function UploadsTab() {
  const userId = useCurrentUserId();
  const tracks = useLoadedList(useUserTracksOrLoading(userId));
  if (!tracks) return <ListLoader label="Your Uploads" />;
  return (
    <TrackList
      tracks={tracks}
      label="Your Uploads"
      empty={
        <EmptyState
          icon={<IconCloudUpload size={28} />}
          message="You haven't uploaded any tracks yet."
          hint="Share your music with listeners everywhere: upload a track with its cover and lyrics."
          action={
            // /upload is not a route yet: a plain link keeps the typed router out of it.
            <Button component="a" href="/upload" leftSection={<IconUpload size={16} aria-hidden />}>
              Upload new track
            </Button>
          }
        />
      }
    />
  );
}
