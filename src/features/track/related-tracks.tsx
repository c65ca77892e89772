import { ActionIcon, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconPlayerPauseFilled, IconPlayerPlayFilled } from '@tabler/icons-react';
import { useMemo } from 'react';
import { AnchorLink } from '@/components/router-links';
import { useAllTracks, useSyncStatus, type Track } from '@/data';
import { CoverArt, toPlayerTrack, toPlayerTracks } from '@/features/catalogue';
import { formatTime } from '@/lib/format-time';
import {
  playerActions,
  pressToPrime,
  relatedTracks,
  useCurrentTrack,
  useIsPlaying,
} from '@/player';

/** 'Up next in the vibe': up to 5 tracks of the same artist or album, each playable. */
export function RelatedTracks({ track }: { track: Track }) {
  const all = useAllTracks();
  const related = useMemo(() => {
    const byId = new Map(all.map((t) => [t.id, t]));
    return relatedTracks(toPlayerTrack(track), toPlayerTracks(all))
      .map((t) => byId.get(t.id))
      .filter((t): t is Track => Boolean(t));
  }, [all, track]);
  const queue = useMemo(() => toPlayerTracks(related), [related]);
  const current = useCurrentTrack();
  const playing = useIsPlaying();
  const sync = useSyncStatus();
  // The catalogue may still be arriving (the first pull after sign-in).
  const arriving = related.length === 0 && sync.lastPulledAt === null && sync.phase === 'syncing';

  return (
    <Paper component="section" aria-labelledby="track-related" p="lg" radius="lg" bg="dark.6">
      <Title id="track-related" order={2} size="h3" mb="md">
        Up next in the vibe
      </Title>
      {arriving ? (
        <Stack gap="sm" aria-busy="true" aria-label="Loading related tracks">
          {[0, 1, 2].map((i) => (
            <Group key={i} gap="sm" wrap="nowrap">
              <Skeleton height={44} width={44} radius="sm" />
              <Stack gap={6} style={{ flex: 1 }}>
                <Skeleton height={12} width="70%" />
                <Skeleton height={10} width="45%" />
              </Stack>
            </Group>
          ))}
        </Stack>
      ) : related.length === 0 ? (
        <Text c="dimmed" size="sm">
          Nothing else from this artist or album yet.
        </Text>
      ) : (
        <Stack component="ul" gap={4} m={0} p={0} style={{ listStyle: 'none' }}>
          {related.map((item, index) => {
            const isCurrent = current?.id === item.id;
            const isPlaying = isCurrent && playing;
            return (
              <Group
                component="li"
                key={item.id}
                gap="sm"
                wrap="nowrap"
                p={6}
                style={{ borderRadius: 'var(--mantine-radius-md)' }}
                bg={isCurrent ? 'dark.5' : undefined}
              >
                <CoverArt src={item.coverImage} seed={item.id} size={44} />
                <Stack gap={0} style={{ minWidth: 0, flex: 1 }}>
                  <AnchorLink
                    to="/track/$trackId"
                    params={{ trackId: item.id }}
                    fw={600}
                    c={isCurrent ? 'ember.4' : 'gray.0'}
                    truncate
                  >
                    {item.title}
                  </AnchorLink>
                  <Text size="sm" c="dimmed" truncate>
                    {item.artist} · {formatTime(item.duration)}
                  </Text>
                </Stack>
                <ActionIcon
                  variant={isCurrent ? 'filled' : 'subtle'}
                  color={isCurrent ? 'ember' : 'gray'}
                  radius="xl"
                  size="lg"
                  aria-label={`${isPlaying ? 'Pause' : 'Play'} ${item.title}`}
                  {...pressToPrime(() => queue[index])}
                  onClick={() => {
                    const target = queue[index];
                    if (target) playerActions.clickTrack(queue, target);
                  }}
                >
                  {isPlaying ? (
                    <IconPlayerPauseFilled size={16} aria-hidden />
                  ) : (
                    <IconPlayerPlayFilled size={16} aria-hidden />
                  )}
                </ActionIcon>
              </Group>
            );
          })}
        </Stack>
      )}
    </Paper>
  );
}
