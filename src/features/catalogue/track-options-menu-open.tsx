/**
 * The row options menu once a row has used it (track-options-menu.tsx loads this module on the
 * first hover, focus or click of a row's button): Mantine's Menu with its popover and floating
 * position, the report dialog and the playlists, none of which a list's first paint needs.
 */
import { Menu } from '@mantine/core';
import {
  IconCopyright,
  IconFlag,
  IconListDetails,
  IconPlayerTrackNext,
  IconPlaylistAdd,
  IconTrash,
  IconUser,
} from '@tabler/icons-react';
import { useNavigate } from '@tanstack/react-router';
import { useRef, useState } from 'react';
import { usePlaylists, type Track } from '@/data';
import { playerActions } from '@/player';
import { addTrackToPlaylist } from './add-to-playlist';
import { ReportTrackModal } from './report-track-modal';
import { toPlayerTrack } from './to-player-track';
import { MenuButton, type TrackOptionsMenuProps } from './track-options-button';
import { useCurrentUserId } from './use-current-user-id';

export function OpenableMenu({ track, onRemove, removeLabel = 'Remove' }: TrackOptionsMenuProps) {
  const navigate = useNavigate();
  const button = useRef<HTMLButtonElement>(null);
  const userId = useCurrentUserId();
  const [reporting, setReporting] = useState(false);
  // Mantine gives the focus back to what had it when the menu opened: on the first open that is
  // the plain button this one replaced, so the menu does it itself when the focus would be lost.
  const returnFocus = () => {
    const active = document.activeElement;
    if (!active || active === document.body || active.closest('[role="menu"]')) {
      button.current?.focus();
    }
  };
  return (
    <>
      <Menu
        position="bottom-end"
        withinPortal
        shadow="md"
        width={240}
        defaultOpened
        onClose={returnFocus}
      >
        <Menu.Target>
          <MenuButton ref={button} title={track.title} onClick={(e) => e.stopPropagation()} />
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
          <PlaylistItems track={track} />
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
          {userId && userId !== track.uploadedBy ? (
            <Menu.Item
              leftSection={<IconFlag size={16} aria-hidden />}
              onClick={() => setReporting(true)}
            >
              Report track
            </Menu.Item>
          ) : null}
          {userId !== track.uploadedBy ? (
            <Menu.Item
              leftSection={<IconCopyright size={16} aria-hidden />}
              onClick={() =>
                void navigate({ to: '/copyright/notice', search: { track: track.id } })
              }
            >
              Copyright notice
            </Menu.Item>
          ) : null}
        </Menu.Dropdown>
      </Menu>
      {reporting ? (
        // The modal is portalled, but React events still bubble to the row (which opens the
        // track page on click): stop them here.
        <span onClick={(e) => e.stopPropagation()} onKeyDown={(e) => e.stopPropagation()}>
          <ReportTrackModal track={track} opened onClose={() => setReporting(false)} />
        </span>
      ) : null}
    </>
  );
}

/** The user's playlists, read only while the menu is open (not one live query per row). */
function PlaylistItems({ track }: { track: Track }) {
  const navigate = useNavigate();
  const playlists = usePlaylists(useCurrentUserId());
  if (playlists.length === 0) {
    return (
      <Menu.Item
        leftSection={<IconPlaylistAdd size={16} aria-hidden />}
        onClick={() => void navigate({ to: '/library', search: { create: 'playlist' } })}
      >
        Create new playlist
      </Menu.Item>
    );
  }
  return playlists.map((p) => (
    <Menu.Item
      key={p.id}
      leftSection={<IconPlaylistAdd size={16} aria-hidden />}
      onClick={() => void addTrackToPlaylist(p.id, p.name, track.id)}
    >
      {p.name}
    </Menu.Item>
  ));
}
