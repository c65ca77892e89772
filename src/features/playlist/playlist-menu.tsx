import { ActionIcon, Menu } from '@mantine/core';
import { IconDots, IconEdit, IconStar, IconStarOff, IconTrash } from '@tabler/icons-react';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { toast } from '@/components/toast';
import { getRepositories, type Playlist } from '@/data';
import { DeletePlaylistDialog } from './delete-playlist-dialog';

export interface PlaylistMenuProps {
  playlist: Playlist;
  featured: boolean;
}

/** The creator's playlist menu: Edit details, Mark as / Remove from featured, Delete playlist. */
export function PlaylistMenu({ playlist, featured }: PlaylistMenuProps) {
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);

  const toggleFeatured = async () => {
    try {
      await getRepositories().profile.update({ featuredPlaylist: featured ? null : playlist.id });
      toast.success(featured ? 'Removed from featured' : 'Marked as featured');
    } catch (error) {
      console.error('Failed to update featured playlist', error);
      toast.error('Failed to update featured playlist');
    }
  };

  const remove = async () => {
    try {
      await getRepositories().playlists.delete(playlist.id);
      setConfirming(false);
      toast.success(`Deleted ${playlist.name}`);
      void navigate({ to: '/library', search: { tab: 'playlists' }, replace: true });
    } catch (error) {
      console.error('Failed to delete playlist', error);
      toast.error('Failed to delete playlist');
    }
  };

  return (
    <>
      <Menu position="bottom-start" shadow="md" width={220} withinPortal>
        <Menu.Target>
          <ActionIcon
            variant="subtle"
            color="gray"
            size="xl"
            radius="xl"
            aria-label="Playlist options"
          >
            <IconDots size={22} aria-hidden />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item
            leftSection={<IconEdit size={16} aria-hidden />}
            onClick={() =>
              void navigate({ to: '/library', search: { tab: 'playlists', edit: playlist.id } })
            }
          >
            Edit details
          </Menu.Item>
          <Menu.Item
            leftSection={
              featured ? <IconStarOff size={16} aria-hidden /> : <IconStar size={16} aria-hidden />
            }
            onClick={() => void toggleFeatured()}
          >
            {featured ? 'Remove from featured' : 'Mark as featured'}
          </Menu.Item>
          <Menu.Divider />
          <Menu.Item
            color="red"
            leftSection={<IconTrash size={16} aria-hidden />}
            onClick={() => setConfirming(true)}
          >
            Delete playlist
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <DeletePlaylistDialog
        name={playlist.name}
        opened={confirming}
        onClose={() => setConfirming(false)}
        onConfirm={remove}
      />
    </>
  );
}
