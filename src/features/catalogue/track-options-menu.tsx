import { ActionIcon, Menu } from '@mantine/core';
import {
  IconDots,
  IconListDetails,
  IconPlayerTrackNext,
  IconPlaylistAdd,
  IconTrash,
  IconUser,
} from '@tabler/icons-react';
import { useNavigate } from '@tanstack/react-router';
import { usePlaylists, type Track } from '@/data';
import { playerActions } from '@/player';
import { addTrackToPlaylist } from './add-to-playlist';
import { toPlayerTrack } from './to-player-track';
import { useCurrentUserId } from './use-current-user-id';

export interface TrackOptionsMenuProps {
  track: Track;
  /** Shown only where the list allows removal ('Remove from playlist', 'Unlike'...). */
  onRemove?: () => void;
  removeLabel?: string;
}

/** The row options menu: play next, add to queue, add to playlist, go to artist, remove. */
export function TrackOptionsMenu({
  track,
  onRemove,
  removeLabel = 'Remove',
}: TrackOptionsMenuProps) {
  const navigate = useNavigate();
  const userId = useCurrentUserId();
  const playlists = usePlaylists(userId);
  return (
    <Menu position="bottom-end" withinPortal shadow="md" width={240}>
      <Menu.Target>
        <ActionIcon
          variant="subtle"
          color="gray"
          aria-label={`More options for ${track.title}`}
          onClick={(e) => e.stopPropagation()}
        >
          <IconDots size={18} aria-hidden />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown onClick={(e) => e.stopPropagation()}>
        <Menu.Item
          leftSection={<IconPlayerTrackNext size={16} aria-hidden />}
          onClick={() => playerActions.playNext(toPlayerTrack(track))}
        >
          Play next
        </Menu.Item>
        <Menu.Item
          leftSection={<IconListDetails size={16} aria-hidden />}
          onClick={() => playerActions.addToQueue(toPlayerTrack(track))}
        >
          Add to queue
        </Menu.Item>
        <Menu.Label>Add to playlist</Menu.Label>
        {playlists.length === 0 ? (
          <Menu.Item
            leftSection={<IconPlaylistAdd size={16} aria-hidden />}
            onClick={() => void navigate({ to: '/library', search: { create: 'playlist' } })}
          >
            Create new playlist
          </Menu.Item>
        ) : (
          playlists.map((p) => (
            <Menu.Item
              key={p.id}
              leftSection={<IconPlaylistAdd size={16} aria-hidden />}
              onClick={() => void addTrackToPlaylist(p.id, p.name, track.id)}
            >
              {p.name}
            </Menu.Item>
          ))
        )}
        <Menu.Divider />
        <Menu.Item
          leftSection={<IconUser size={16} aria-hidden />}
          onClick={() =>
            void navigate({
              to: '/artist/$artistName',
              params: { artistName: track.artist },
            })
          }
        >
          Go to artist
        </Menu.Item>
        {onRemove ? (
          <Menu.Item
            color="red"
            leftSection={<IconTrash size={16} aria-hidden />}
            onClick={onRemove}
          >
            {removeLabel}
          </Menu.Item>
        ) : null}
      </Menu.Dropdown>
    </Menu>
  );
}
