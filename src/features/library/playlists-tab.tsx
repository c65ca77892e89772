import { Button, SimpleGrid } from '@mantine/core';
import { IconPlaylist, IconPlus } from '@tabler/icons-react';
import { usePlaylistsOrLoading } from '@/data';
import { PlaylistCard, useCurrentUserId } from '@/features/catalogue';
import { EmptyState } from '@/components/empty-state';
import { ListLoader } from './list-loader';
import { useLoadedList } from './use-loaded-list';

/** Playlists: the user's playlists, newest first, as cards (cover, name, track count). */
export function PlaylistsTab({ onCreate }: { onCreate: () => void }) {
  const userId = useCurrentUserId();
  const playlists = useLoadedList(usePlaylistsOrLoading(userId));
  if (!playlists) return <ListLoader label="Playlists" />;
  if (playlists.length === 0) {
    return (
      <EmptyState
        icon={<IconPlaylist size={28} />}
        message="No playlists yet."
        hint="Collect the tracks you love for every mood and moment."
        action={
          <Button
            variant="light"
            leftSection={<IconPlus size={16} aria-hidden />}
            onClick={onCreate}
          >
            Start a playlist
          </Button>
        }
      />
    );
  }
  return (
    <SimpleGrid
      cols={{ base: 2, xs: 3, md: 4, lg: 5 }}
      spacing="md"
      role="list"
      aria-label="Playlists"
    >
      {playlists.map((playlist) => (
        <div role="listitem" key={playlist.id}>
          <PlaylistCard playlist={playlist} />
        </div>
      ))}
    </SimpleGrid>
  );
}
