import { Paper, Text } from '@mantine/core';
import { IconSparkles } from '@tabler/icons-react';
import { memo, useMemo } from 'react';
import { useRecommendations } from '@/data/repositories/use-recommendations';
import { CoverShelf, CoverShelfSkeleton } from './cover-shelf';
import { SectionHeader } from './section-header';
import { TrackCoverCard } from './track-cover-card';

const SHOWN = 8;

/** Recommended For You: the get-recommendations function; failures only logged (spec 8). */
export const RecommendedForYou = memo(function RecommendedForYou({
  userId,
}: {
  userId: string | null;
}) {
  const { loading, tracks } = useRecommendations(userId);
  const shown = useMemo(() => tracks.slice(0, SHOWN), [tracks]);
  return (
    <section aria-labelledby="home-recommended">
      <SectionHeader id="home-recommended" title="Recommended For You" />
      {loading ? (
        <CoverShelfSkeleton wide={8} />
      ) : shown.length === 0 ? (
        <Paper withBorder radius="md" p="lg" bg="dark.7">
          <Text c="dimmed" size="sm" ta="center">
            <IconSparkles size={16} aria-hidden style={{ verticalAlign: '-3px', marginRight: 6 }} />
            No recommendations yet. Listen to more music to get suggestions.
          </Text>
        </Paper>
      ) : (
        <CoverShelf
          items={shown}
          wide={8}
          label="Recommended tracks"
          itemKey={(t) => t.id}
          render={(t) => <TrackCoverCard track={t} list={shown} />}
        />
      )}
    </section>
  );
});
