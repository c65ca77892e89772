import { Avatar, Group, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconPlayerPauseFilled, IconPlayerPlayFilled } from '@tabler/icons-react';
import { AnchorLink } from '@/components/router-links';
import type { FriendActivity } from '@/data/repositories/use-friends-activity';
import { CoverArt } from '@/features/catalogue/cover-art';
import { toPlayerTrack } from '@/features/catalogue/to-player-track';
import { playerActions, pressToPrime, useCurrentTrack, useIsPlaying } from '@/player';
import { timeAgo } from './home-text';

/** One listen of a followed user: who, what (track page link), when; the cover plays it. */
export function ActivityItem({
  item,
  list,
}: {
  item: FriendActivity;
  list: readonly FriendActivity[];
}) {
  const current = useCurrentTrack();
  const isPlaying = useIsPlaying();
  const playing = isPlaying && current?.id === item.track.id;
  const PlayIcon = playing ? IconPlayerPauseFilled : IconPlayerPlayFilled;
  const play = () => {
    const tracks = list
      .map((a) => toPlayerTrack(a.track))
      .filter((t, i, all) => all.findIndex((o) => o.id === t.id) === i);
    playerActions.clickTrack(tracks, toPlayerTrack(item.track));
  };
  return (
    <Group gap="sm" wrap="nowrap" py={8} px="xs" className="home-activity">
      <Avatar
        src={item.user.avatar}
        name={item.user.name}
        color="initials"
        size={40}
        radius="xl"
        alt=""
      />
      <div style={{ flex: 1, minWidth: 0 }}>
        <Group gap="xs" wrap="nowrap" justify="space-between">
          <Text size="sm" truncate>
            <AnchorLink
              to="/profile/$userId"
              params={{ userId: item.user.id }}
              fw={600}
              c="white"
              underline="hover"
            >
              {item.user.name}
            </AnchorLink>
            <VisuallyHidden> listened to</VisuallyHidden>
          </Text>
          <Text size="xs" c="dimmed" style={{ flex: 'none' }}>
            <time dateTime={item.listenedAt}>{timeAgo(item.listenedAt)}</time>
          </Text>
        </Group>
        <Text size="sm" truncate>
          <AnchorLink
            to="/track/$trackId"
            params={{ trackId: item.track.id }}
            c="gray.2"
            underline="hover"
          >
            {item.track.title}
          </AnchorLink>
          <Text span c="dimmed" size="sm">
            {' · '}
            {item.track.artist}
          </Text>
        </Text>
      </div>
      <UnstyledButton
        {...pressToPrime(() => toPlayerTrack(item.track))}
        onClick={play}
        aria-label={`${playing ? 'Pause' : 'Play'} ${item.track.title}`}
        className="home-activity-cover"
      >
        <CoverArt src={item.track.coverImage} seed={item.track.id} size={44} radius="sm" />
        <span className="home-activity-play" aria-hidden>
          <PlayIcon size={18} />
        </span>
      </UnstyledButton>
    </Group>
  );
}
