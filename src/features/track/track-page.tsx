import { Alert, Center, Container, Grid, Loader, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { type Track } from '@/data';
import { useTrack } from '@/data/repositories/track-page-hooks';
import { RelatedTracks } from './related-tracks';
import { TrackAbout } from './track-about';
import { TrackHero } from './track-hero';
import { TrackNotFound } from './track-not-found';

export interface TrackPageProps {
  trackId: string;
  /** The lyrics section for the track (the lyrics feature, composed by the route). */
  lyrics?: (track: Track) => ReactNode;
}

/**
 * /track/{trackId}: hero (cover, title, artist, metrics, actions), lyrics, About and 'Up next in
 * the vibe'. A loader until the mirror or the server answered; then 'Track Not Found'.
 */
export function TrackPage({ trackId, lyrics }: TrackPageProps) {
  const load = useTrack(trackId);
  return (
    <Container size="xl" py={{ base: 'md', sm: 'xl' }} px={{ base: 'sm', sm: 'lg' }}>
      {load.status === 'loading' ? (
        <Center mih={320}>
          <Loader aria-label="Loading track" />
        </Center>
      ) : load.status === 'missing' ? (
        <TrackNotFound />
      ) : (
        <TrackContent track={load.track} lyrics={lyrics} />
      )}
    </Container>
  );
}

function TrackContent({ track, lyrics }: { track: Track; lyrics: TrackPageProps['lyrics'] }) {
  return (
    <Stack gap="xl">
      {track.takenDownAt ? (
        // Only its uploader (and admins) still receive a taken-down track (docs/admin.md).
        <Alert color="red" title="This track was taken down" role="status">
          {track.takedownReason} Listeners no longer see it.
        </Alert>
      ) : null}
      <TrackHero track={track} />
      <Grid gap="xl">
        <Grid.Col span={{ base: 12, lg: 8 }}>
          <Stack gap="xl">
            {lyrics?.(track)}
            <TrackAbout track={track} />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 4 }}>
          <RelatedTracks track={track} />
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
