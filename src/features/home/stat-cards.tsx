import { Flex, Paper, SimpleGrid, Skeleton, Text, ThemeIcon } from '@mantine/core';
import {
  IconCloudUpload,
  IconCrown,
  IconHeart,
  IconPlaylist,
  type Icon,
} from '@tabler/icons-react';

export interface StatCardsProps {
  tracks: number;
  liked: number;
  playlists: number;
  plan: string;
  loading: boolean;
}

interface Stat {
  label: string;
  value: string;
  icon: Icon;
  color: string;
}

/** Your Tracks, Liked Songs, Playlists, Current Plan (spec 2). */
export function StatCards({ tracks, liked, playlists, plan, loading }: StatCardsProps) {
  const items: Stat[] = [
    { label: 'Your Tracks', value: String(tracks), icon: IconCloudUpload, color: 'ember' },
    { label: 'Liked Songs', value: String(liked), icon: IconHeart, color: 'pink' },
    { label: 'Playlists', value: String(playlists), icon: IconPlaylist, color: 'violet' },
    { label: 'Current Plan', value: plan, icon: IconCrown, color: 'yellow' },
  ];
  return (
    <SimpleGrid cols={{ base: 2, md: 4 }} spacing={{ base: 'sm', sm: 'md' }}>
      {items.map(({ label, value, icon: StatIcon, color }) => (
        <Paper
          key={label}
          withBorder
          radius="md"
          p={{ base: 'sm', sm: 'md' }}
          bg="dark.7"
          role="group"
          aria-label={label}
        >
          <Flex
            gap="sm"
            direction={{ base: 'column', xs: 'row' }}
            align={{ base: 'flex-start', xs: 'center' }}
          >
            <ThemeIcon variant="light" color={color} size={40} radius="md" aria-hidden>
              <StatIcon size={20} />
            </ThemeIcon>
            <div style={{ minWidth: 0 }}>
              <Text size="xs" c="dimmed" tt="uppercase" fw={600} lts={0.4} truncate>
                {label}
              </Text>
              {loading ? (
                <Skeleton h={{ base: 22, sm: 24 }} w={48} />
              ) : (
                <Text fz={{ base: 'lg', sm: 'xl' }} fw={750} lh={1.2} data-testid="stat-value">
                  {value}
                </Text>
              )}
            </div>
          </Flex>
        </Paper>
      ))}
    </SimpleGrid>
  );
}
