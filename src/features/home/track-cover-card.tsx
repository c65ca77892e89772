import { Text } from '@mantine/core';
import { IconPlayerPauseFilled, IconPlayerPlayFilled } from '@tabler/icons-react';
import { AnchorLink } from '@/components/router-links';
import type { Track } from '@/data';
import { CoverArt } from '@/features/catalogue/cover-art';
import { toPlayerTrack, toPlayerTracks } from '@/features/catalogue/to-player-track';
import { playerActions, pressToPrime, useCurrentTrack, useIsPlaying } from '@/player';

/**
 * A track as a cover card: the cover plays it with `list` as the queue (or pauses it when it is
 * the current track; its press loads it: pressToPrime), the title opens /track/{id}.
 */
export function TrackCoverCard({ track, list }: { track: Track; list: readonly Track[] }) {
  const current = useCurrentTrack();
  const isPlaying = useIsPlaying();
  const isCurrent = current?.id === track.id;
  const playing = isCurrent && isPlaying;
  const PlayIcon = playing ? IconPlayerPauseFilled : IconPlayerPlayFilled;
  return (
    <>
      <button
        type="button"
        className="home-cover-button"
        aria-label={`${playing ? 'Pause' : 'Play'} ${track.title}`}
        data-current={isCurrent || undefined}
        {...pressToPrime(() => toPlayerTrack(track))}
        onClick={() => playerActions.clickTrack(toPlayerTracks(list), toPlayerTrack(track))}
      >
        <span className="home-cover">
          <CoverArt src={track.coverImage} seed={track.id} size="100%" radius="md" />
          <span className="home-cover-play" aria-hidden>
            <PlayIcon size={20} />
          </span>
        </span>
      </button>
      <AnchorLink
        to="/track/$trackId"
        params={{ trackId: track.id }}
        className="home-card-title"
        data-current={isCurrent || undefined}
        underline="hover"
      >
        {track.title}
      </AnchorLink>
      <Text size="xs" c="dimmed" truncate>
        {track.artist}
      </Text>
    </>
  );
}
