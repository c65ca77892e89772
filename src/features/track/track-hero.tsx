import { Badge, Box, Group, Stack, Text, Title } from '@mantine/core';
import { IconRosetteDiscountCheckFilled } from '@tabler/icons-react';
import { AnchorLink } from '@/components/router-links';
import type { Track } from '@/data';
import { CoverArt } from '@/features/catalogue';
import { TrackActions } from './track-actions';
import { TrackMetrics } from './track-metrics';
import { TrackWaveform } from './track-waveform';
import classes from './track-page.module.css';

/** Cover, title, artist link, metrics and the actions row. */
export function TrackHero({ track }: { track: Track }) {
  return (
    <Box component="section" aria-labelledby="track-title" className={classes.hero}>
      <Box className={classes.cover}>
        <CoverArt src={track.coverImage} seed={track.id} size="100%" radius="md" />
      </Box>
      <Stack gap="sm" className={classes.heroText}>
        <Group gap="xs">
          <Text size="xs" fw={700} tt="uppercase" c="dimmed" style={{ letterSpacing: '0.12em' }}>
            Track
          </Text>
          {track.verified ? (
            <Badge
              size="sm"
              variant="light"
              color="teal"
              leftSection={<IconRosetteDiscountCheckFilled size={12} aria-hidden />}
            >
              Approved
            </Badge>
          ) : null}
        </Group>
        <Title id="track-title" order={1} className={classes.title}>
          {track.title}
        </Title>
        <AnchorLink
          to="/artist/$artistName"
          params={{ artistName: track.artist }}
          size="lg"
          fw={600}
          c="gray.3"
          w="fit-content"
        >
          {track.artist}
        </AnchorLink>
        <TrackMetrics track={track} />
        <TrackActions track={track} />
        <TrackWaveform track={track} />
      </Stack>
    </Box>
  );
}
