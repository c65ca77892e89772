import { Button, Menu, Text } from '@mantine/core';
import { IconCheck, IconChevronDown, IconPlaylistAdd, IconPlus } from '@tabler/icons-react';
import { useNavigate } from '@tanstack/react-router';
import { usePlaylists } from '@/data';
import { addTrackToPlaylist, useCurrentUserId } from '@/features/catalogue';

/**
 * The add-to-playlist dropdown (spec 2): the user's playlists ('No playlists found.' when none)
 * and 'Create new playlist'. A playlist already holding the track is marked; adding it again
 * does nothing (spec 5).
 */
export function AddToPlaylistMenu({ trackId }: { trackId: string }) {
  const navigate = useNavigate();
  const userId = useCurrentUserId();
  const playlists = usePlaylists(userId);
  return (
    <Menu position="bottom-start" shadow="md" width={260} withinPortal>
      <Menu.Target>
        <Button
          variant="default"
          radius="xl"
          leftSection={<IconPlaylistAdd size={16} aria-hidden />}
          rightSection={<IconChevronDown size={14} aria-hidden />}
        >
          Add to playlist
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>Your playlists</Menu.Label>
        {playlists.length === 0 ? (
          <Text size="sm" c="dimmed" px="sm" py={6}>
            No playlists found.
          </Text>
        ) : (
          playlists.map((playlist) => {
            const present = playlist.trackIds.includes(trackId);
            return (
              <Menu.Item
                key={playlist.id}
                leftSection={
                  present ? (
                    <IconCheck size={16} aria-hidden />
                  ) : (
                    <IconPlaylistAdd size={16} aria-hidden />
                  )
                }
                aria-label={present ? `${playlist.name} (already added)` : playlist.name}
                onClick={() => void addTrackToPlaylist(playlist.id, playlist.name, trackId)}
              >
                {playlist.name}
              </Menu.Item>
            );
          })
        )}
        <Menu.Divider />
        <Menu.Item
          leftSection={<IconPlus size={16} aria-hidden />}
          onClick={() => void navigate({ to: '/library', search: { create: 'playlist' } })}
        >
          Create new playlist
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
