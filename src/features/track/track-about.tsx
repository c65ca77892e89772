import { Paper, Stack, Text, Title } from '@mantine/core';
import type { Track } from '@/data';
import { AnchorLink } from '@/components/router-links';
import { genrePhrase } from './genre-phrase';

const released = new Intl.DateTimeFormat('en', { dateStyle: 'long' });

function releaseDate(iso: string): string | null {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : released.format(date);
}

/** The About block: what the track is, where it comes from, when it came out. */
export function TrackAbout({ track }: { track: Track }) {
  const date = releaseDate(track.createdAt);
  return (
    <Paper component="section" aria-labelledby="track-about" p="lg" radius="lg" bg="dark.6">
      <Stack gap="sm">
        <Title id="track-about" order={2} size="h3">
          About
        </Title>
        <Text>
          “{track.title}” is {genrePhrase(track.genre)} by{' '}
          <AnchorLink to="/artist/$artistName" params={{ artistName: track.artist }} fw={600}>
            {track.artist}
          </AnchorLink>
          {track.album ? `, from the album ${track.album}.` : ', released as a single.'}
        </Text>
        {date ? (
          <Text c="dimmed" size="sm">
            Released on Soundloft on {date}.
          </Text>
        ) : null}
        {track.verified ? null : (
          <Text c="dimmed" size="sm">
            This upload is pending review.
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
