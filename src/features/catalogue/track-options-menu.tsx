import { ActionIcon, Menu } from '@mantine/core';
import {
  IconDots,
  IconFlag,
  IconListDetails,
  IconPlayerTrackNext,
  IconPlaylistAdd,
  IconTrash,
  IconUser,
} from '@tabler/icons-react';
import { useNavigate } from '@tanstack/react-router';
import { useRef, useState, type MouseEvent, type Ref } from 'react';
import { usePlaylists, type Track } from '@/data';
import { playerActions } from '@/player';
import { addTrackToPlaylist } from './add-to-playlist';
import { ReportTrackModal } from './report-track-modal';
import { toPlayerTrack } from './to-player-track';
import { useCurrentUserId } from './use-current-user-id';

export interface TrackOptionsMenuProps {
  track: Track;
  /** Shown only where the list allows removal ('Remove from playlist', 'Unlike'...). */
  onRemove?: () => void;
  removeLabel?: string;
}

/**
 * The row options menu: play next, add to queue, add to playlist, go to artist, remove.
 *
 * A list shows one per row, and a Mantine Menu costs a popover, its floating position and a
 * layout effect even while closed: a row shows a plain button until it is first used, and the
 * menu mounts already open on that click (or Enter/Space). Focus moves into the menu as with any
 * Mantine menu and returns to the button when it closes (docs/architecture.md, "Render cost").
 */
export function TrackOptionsMenu(props: TrackOptionsMenuProps) {
  const [used, setUsed] = useState(false);
  if (used) return <OpenableMenu {...props} />;
  return (
    <MenuButton
      title={props.track.title}
      onClick={(e) => {
        e.stopPropagation();
        setUsed(true);
      }}
    />
  );
}

function MenuButton({
  title,
  onClick,
  ref,
  ...others
}: {
  title: string;
  onClick?: (event: MouseEvent<HTMLButtonElement>) => void;
  ref?: Ref<HTMLButtonElement>;
}) {
  return (
    <ActionIcon
      ref={ref}
      variant="subtle"
      color="gray"
      aria-label={`More options for ${title}`}
      aria-haspopup="menu"
      onClick={onClick}
      {...others}
    >
      <IconDots size={18} aria-hidden />
    </ActionIcon>
  );
}

function OpenableMenu({ track, onRemove, removeLabel = 'Remove' }: TrackOptionsMenuProps) {
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
