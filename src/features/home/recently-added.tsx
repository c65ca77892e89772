import { Text } from '@mantine/core';
import { memo } from 'react';
import { AnchorLink } from '@/components/router-links';
import { useRecentTracksOrLoading } from '@/data';
import { CoverShelf, CoverShelfSkeleton } from './cover-shelf';
import { SectionHeader } from './section-header';
import { TrackCoverCard } from './track-cover-card';

/** Spec 9: the 8 newest tracks of the catalogue. */
export const RECENTLY_ADDED_COUNT = 8;

/** Recently Added: the newest tracks as cover cards; See All goes to /explore. */
export const RecentlyAdded = memo(function RecentlyAdded() {
  // Undefined until the mirror's first full pull has answered: skeletons, not 'No tracks yet.'.
  const tracks = useRecentTracksOrLoading(RECENTLY_ADDED_COUNT);
  return (
    <section aria-labelledby="home-recent">
      <SectionHeader
        id="home-recent"
        title="Recently Added"
        action={
          <AnchorLink to="/explore" size="sm" fw={600} c="dimmed" underline="hover">
            See All
          </AnchorLink>
        }
      />
      {tracks === undefined ? (
        <CoverShelfSkeleton wide={8} />
      ) : tracks.length === 0 ? (
        <Text c="dimmed" size="sm">
          No tracks yet.
        </Text>
      ) : (
        <CoverShelf
          items={tracks}
          wide={8}
          label="Recently added tracks"
          itemKey={(t) => t.id}
          render={(t) => <TrackCoverCard track={t} list={tracks} />}
        />
      )}
    </section>
  );
});
