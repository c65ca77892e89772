import {
  Button,
  Center,
  Group,
  Loader,
  Paper,
  Skeleton,
  Stack,
  Text,
  ThemeIcon,
} from '@mantine/core';
import { IconMoodEmpty } from '@tabler/icons-react';
import { memo } from 'react';
import type { Track } from '@/data';
import { TrackList } from '@/features/catalogue';
import { NO_TRACKS_FOUND, TRY_DIFFERENT_TERM } from '../explore-text';
import { useProgressiveRows } from './use-progressive-rows';

export interface ExploreResultsProps {
  tracks: readonly Track[];
  total: number;
  hasMore: boolean;
  loading: boolean;
  searchingServer: boolean;
  onShowMore: () => void;
  /** Identifies the search (its normalised text): a new one renders its rows afresh. */
  listKey: string;
}

function NoTracks() {
  return (
    <Paper withBorder radius="lg" p={{ base: 'lg', sm: 48 }} bg="dark.7">
      <Stack align="center" gap={6}>
        <ThemeIcon size={56} radius="xl" variant="light" color="ember" mb="xs">
          <IconMoodEmpty size={30} aria-hidden />
        </ThemeIcon>
        <Text fw={600} size="lg">
          {NO_TRACKS_FOUND}
        </Text>
        <Text c="dimmed" size="sm">
          {TRY_DIFFERENT_TERM}
        </Text>
      </Stack>
    </Paper>
  );
}

function LoadingRows() {
  return (
    <Stack gap="sm" aria-busy="true" aria-label="Loading tracks">
      {Array.from({ length: 8 }, (_, i) => (
        <Group key={i} gap="md" wrap="nowrap">
          <Skeleton height={40} width={40} radius="sm" />
          <Stack gap={6} style={{ flex: 1 }}>
            <Skeleton height={12} width={`${40 + ((i * 13) % 35)}%`} />
            <Skeleton height={10} width={`${20 + ((i * 7) % 20)}%`} />
          </Stack>
        </Group>
      ))}
    </Stack>
  );
}

/**
 * Results: skeleton rows while nothing is there yet, the spec's empty text, or the list. Memoised
 * (the page re-renders on every keystroke and sync tick) and rendered progressively
 * (useProgressiveRows).
 */
export const ExploreResults = memo(function ExploreResults({
  tracks,
  total,
  hasMore,
  loading,
  searchingServer,
  onShowMore,
  listKey,
}: ExploreResultsProps) {
  const { rows, pending } = useProgressiveRows(tracks, listKey);
  // Nothing rendered yet but rows are coming: skeletons, not 'No tracks found.'.
  if (loading || (rows.length === 0 && tracks.length > 0)) return <LoadingRows />;
  return (
    <Stack gap="md" aria-busy={pending || undefined}>
      <TrackList tracks={rows} label="Search results" empty={<NoTracks />} />
      {searchingServer && tracks.length > 0 && (
        <Group gap="xs" justify="center" c="dimmed">
          <Loader size="xs" color="gray" />
          <Text size="sm">Searching the whole catalogue…</Text>
        </Group>
      )}
      {hasMore && (
        <Center>
          <Button variant="default" radius="xl" onClick={onShowMore}>
            {total > tracks.length
              ? `Show more (${(total - tracks.length).toLocaleString('en')} more)`
              : 'Show more'}
          </Button>
        </Center>
      )}
    </Stack>
  );
});
