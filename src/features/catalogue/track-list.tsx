import { ActionIcon, Group, Text, VisuallyHidden } from '@mantine/core';
import {
  IconCircleArrowDownFilled,
  IconPlayerPauseFilled,
  IconPlayerPlayFilled,
} from '@tabler/icons-react';
import { useNavigate } from '@tanstack/react-router';
import { AnchorLink } from '@/components/router-links';
import {
  memo,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  type ReactNode,
} from 'react';
import { useDownloadedTrackIds, type Track } from '@/data';
import { formatTime } from '@/lib/format-time';
import { whenIdle } from '@/lib/when-idle';
import {
  playerActions,
  prepareAudio,
  pressToPrime,
  useCurrentTrack,
  useIsPlaying,
  type PlayerTrack,
} from '@/player';
import { CoverArt } from './cover-art';
import { albumLabel, toPlayerTracks } from './to-player-track';
import classes from './track-list.module.css';
import { preloadTrackOptionsMenu, TrackOptionsMenu } from './track-options-menu';
import { useCurrentUserId } from './use-current-user-id';

export interface TrackListProps {
  tracks: readonly Track[];
  /** Accessible name of the table ('Liked Songs', 'Search results'...). */
  label: string;
  /** Where the list allows removal: called with the track, shown in the row menu. */
  onRemove?: (track: Track) => void;
  removeLabel?: string;
  /** Extra cell at the end of each row (e.g. reorder handles on a playlist). */
  renderExtra?: (track: Track, index: number) => ReactNode;
  /** Shown instead of the table when there are no tracks. */
  empty?: ReactNode;
}

/**
 * The shared track list (spec 2): #, Title, Artist, Album, Time. A row click opens the track
 * page; the play button plays the list from that row (or toggles the current track).
 */
export function TrackList({
  tracks,
  label,
  onRemove,
  removeLabel,
  renderExtra,
  empty,
}: TrackListProps) {
  const current = useCurrentTrack();
  const playing = useIsPlaying();
  const queue = useMemo(() => toPlayerTracks(tracks), [tracks]);
  const downloaded = useDownloadedTrackIds(useCurrentUserId());
  // The handlers read the latest props through a ref, so a row re-renders only when its own
  // data or state changes (a click re-renders two rows, not the list: docs/player.md).
  const latest = useRef({ queue, onRemove });
  useLayoutEffect(() => {
    latest.current = { queue, onRemove };
  });
  const play = useCallback((index: number) => {
    const { queue: list } = latest.current;
    const playerTrack = list[index];
    if (playerTrack) playerActions.clickTrack(list, playerTrack);
  }, []);
  const intent = useCallback((index: number) => {
    const playerTrack = latest.current.queue[index];
    if (playerTrack) prepareAudio([playerTrack]);
  }, []);
  // The track a row's play button plays, read at the press (pressToPrime).
  const trackAt = useCallback((index: number) => latest.current.queue[index], []);
  const remove = useCallback((track: Track) => latest.current.onRemove?.(track), []);
  // The rows on screen are likely to be played: their audio URLs are signed ahead, in one
  // request, once the page is idle (a click then starts the audio without waiting for one).
  useEffect(() => whenIdle(() => prepareAudio(queue)), [queue]);
  // The rows' menu code too, so that a first open does not wait for it.
  useEffect(() => whenIdle(preloadTrackOptionsMenu), []);
  if (tracks.length === 0 && empty) return <>{empty}</>;

  return (
    <table className={classes.table} aria-label={label}>
      <thead>
        <tr>
          <th className={classes.index}>#</th>
          <th>Title</th>
          <th className={classes.fromSm}>Artist</th>
          <th className={classes.fromMd}>Album</th>
          <th className={classes.time}>Time</th>
          <th className={renderExtra ? classes.actionsWide : classes.actions}>
            <VisuallyHidden>Actions</VisuallyHidden>
          </th>
        </tr>
      </thead>
      <tbody>
        {tracks.map((track, index) => {
          const isCurrent = current?.id === track.id;
          return (
            <TrackRow
              key={track.id}
              track={track}
              index={index}
              isCurrent={isCurrent}
              isPlaying={isCurrent && playing}
              isDownloaded={downloaded.has(track.id)}
              onPlay={play}
              trackAt={trackAt}
              onIntent={intent}
              onRemove={remove}
              removable={onRemove !== undefined}
              removeLabel={removeLabel}
              renderExtra={renderExtra}
            />
          );
        })}
      </tbody>
    </table>
  );
}

interface TrackRowProps {
  track: Track;
  index: number;
  isCurrent: boolean;
  isPlaying: boolean;
  isDownloaded: boolean;
  onPlay: (index: number) => void;
  trackAt: (index: number) => PlayerTrack | undefined;
  onIntent: (index: number) => void;
  onRemove: (track: Track) => void;
  removable: boolean;
  removeLabel?: string;
  renderExtra?: (track: Track, index: number) => ReactNode;
}

const TrackRow = memo(function TrackRow({
  track,
  index,
  isCurrent,
  isPlaying,
  isDownloaded,
  onPlay,
  trackAt,
  onIntent,
  onRemove,
  removable,
  removeLabel,
  renderExtra,
}: TrackRowProps) {
  const navigate = useNavigate();
  return (
    <tr
      className={classes.row}
      aria-current={isCurrent ? 'true' : undefined}
      onPointerEnter={() => onIntent(index)}
      onFocus={() => onIntent(index)}
      onClick={() =>
        void navigate({
          to: '/track/$trackId',
          params: { trackId: track.id },
        })
      }
    >
      <td>
        <Group gap={4} wrap="nowrap" className={classes.play}>
          <ActionIcon
            variant={isCurrent ? 'filled' : 'subtle'}
            color={isCurrent ? 'ember' : 'gray'}
            radius="xl"
            aria-label={isPlaying ? `Pause ${track.title}` : `Play ${track.title}`}
            // The press, before its click: the track's audio starts loading now
            // (docs/player.md, "Loading from the press").
            {...pressToPrime(() => trackAt(index))}
            onClick={(e) => {
              e.stopPropagation();
              onPlay(index);
            }}
          >
            {isPlaying ? (
              <IconPlayerPauseFilled size={14} aria-hidden />
            ) : isCurrent ? (
              <IconPlayerPlayFilled size={14} aria-hidden />
            ) : null}
          </ActionIcon>
          {/* The row number shows on the button but is not its text: the button's name is
              'Play <title>', and a visible text that is not in the name fails WCAG 2.5.3
              (label in name). Clicks pass through it to the button. */}
          {isPlaying || isCurrent ? null : (
            <Text size="xs" c="dimmed" component="span" aria-hidden className={classes.number}>
              {index + 1}
            </Text>
          )}
        </Group>
      </td>
      <td className={`${classes.clip} ${classes.title}`}>
        <Group gap="sm" wrap="nowrap">
          <CoverArt src={track.coverImage} seed={track.id} size={40} />
          {isDownloaded ? (
            <IconCircleArrowDownFilled
              size={16}
              role="img"
              aria-label="Downloaded"
              color="var(--mantine-color-ember-4)"
              style={{ flex: 'none' }}
            />
          ) : null}
          <div style={{ minWidth: 0 }}>
            <AnchorLink
              to={'/track/$trackId'}
              params={{ trackId: track.id }}
              c={isCurrent ? 'ember.4' : 'gray.0'}
              fw={600}
              size="sm"
              truncate
              display="block"
              onClick={(e) => e.stopPropagation()}
            >
              {track.title}
            </AnchorLink>
            <Text size="xs" c="dimmed" truncate hiddenFrom="sm">
              {track.artist}
            </Text>
          </div>
        </Group>
      </td>
      <td className={`${classes.clip} ${classes.fromSm}`}>
        <AnchorLink
          to={'/artist/$artistName'}
          params={{ artistName: track.artist }}
          size="sm"
          c="gray.3"
          truncate
          display="block"
          onClick={(e) => e.stopPropagation()}
        >
          {track.artist}
        </AnchorLink>
      </td>
      <td className={`${classes.clip} ${classes.fromMd}`}>
        <Text size="sm" c="gray.4" truncate>
          {albumLabel(track.album)}
        </Text>
      </td>
      <td className={classes.time}>
        <Text size="sm" c="gray.4" style={{ fontVariantNumeric: 'tabular-nums' }}>
          {formatTime(track.duration)}
        </Text>
      </td>
      <td>
        <Group gap={2} wrap="nowrap" justify="flex-end">
          {renderExtra?.(track, index)}
          <TrackOptionsMenu
            track={track}
            onRemove={removable ? () => onRemove(track) : undefined}
            removeLabel={removeLabel}
          />
        </Group>
      </td>
    </tr>
  );
});
