import { Box, Text } from '@mantine/core';
import type { Track } from '@/data';
import { albumLabel } from '@/features/catalogue';
import { formatTime, formatTimeSpoken } from '@/lib/format-time';
import classes from './track-metrics.module.css';

const plays = new Intl.NumberFormat('en');

/** Spec 2: plays, duration, genre, album (or 'Single'). */
export function TrackMetrics({ track }: { track: Track }) {
  const items: { label: string; value: string; spoken?: string }[] = [
    { label: 'Plays', value: plays.format(track.plays) },
    {
      label: 'Duration',
      value: formatTime(track.duration),
      spoken: formatTimeSpoken(track.duration),
    },
    { label: 'Genre', value: track.genre?.trim() || 'Unknown' },
    { label: 'Album', value: albumLabel(track.album) },
  ];
  return (
    <Box component="dl" className={classes.metrics} aria-label="Track details">
      {items.map((item) => (
        <div key={item.label} className={classes.item}>
          <Text component="dt" size="xs" c="dimmed" tt="uppercase" fw={600}>
            {item.label}
          </Text>
          <Text component="dd" fw={600} className={classes.value} aria-label={item.spoken}>
            {item.value}
          </Text>
        </div>
      ))}
    </Box>
  );
}
