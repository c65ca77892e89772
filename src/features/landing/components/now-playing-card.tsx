import { Box, Group, Paper, Progress, Stack, Text } from '@mantine/core';
import {
  IconPlayerPauseFilled,
  IconPlayerSkipBackFilled,
  IconPlayerSkipForwardFilled,
} from '@tabler/icons-react';

const LYRICS = [
  { time: '0:42', text: 'City lights are humming low', current: false },
  { time: '0:46', text: 'Every window keeps a song', current: true },
  { time: '0:51', text: 'Take the long way, take it slow', current: false },
];

/** An illustration of the player with synced lyrics, drawn in code (no remote images). */
export function NowPlayingCard() {
  const bars = Array.from(
    { length: 48 },
    (_, i) => 18 + Math.round(30 * Math.abs(Math.sin(i * 0.55) * Math.cos(i * 0.21))),
  );
  return (
    <Paper
      role="img"
      aria-label="The Soundloft player showing synced lyrics for the track Window Songs by Nora Vale"
      p="lg"
      radius="lg"
      withBorder
      bg="dark.6"
      style={{ boxShadow: '0 30px 80px rgba(0,0,0,0.45)' }}
    >
      <Stack gap="md" aria-hidden>
        <Group gap="md" wrap="nowrap">
          <Box
            w={72}
            h={72}
            style={{
              flexShrink: 0,
              borderRadius: 12,
              background:
                'conic-gradient(from 200deg at 30% 30%, #ff642b, #7a4dff, #1c1c25, #ff642b)',
            }}
          />
          <Stack gap={2} style={{ minWidth: 0 }}>
            <Text fw={700} truncate>
              Window Songs
            </Text>
            <Text size="sm" c="dimmed" truncate>
              Nora Vale · Night Transit
            </Text>
          </Stack>
        </Group>
        <Group gap={3} h={56} align="flex-end" wrap="nowrap" style={{ overflow: 'hidden' }}>
          {bars.map((h, i) => (
            <Box
              key={i}
              w={4}
              h={h}
              style={{
                flexShrink: 0,
                borderRadius: 2,
                background: i < 20 ? 'var(--mantine-color-ember-5)' : 'var(--mantine-color-dark-3)',
              }}
            />
          ))}
        </Group>
        <Progress value={41} size="sm" />
        <Group justify="space-between">
          <Text size="xs" c="dimmed">
            0:47
          </Text>
          <Group gap="lg" c="gray.2">
            <IconPlayerSkipBackFilled size={20} />
            <Box
              w={44}
              h={44}
              bg="ember.5"
              c="dark.7"
              style={{ borderRadius: '50%', display: 'grid', placeItems: 'center' }}
            >
              <IconPlayerPauseFilled size={22} />
            </Box>
            <IconPlayerSkipForwardFilled size={20} />
          </Group>
          <Text size="xs" c="dimmed">
            1:54
          </Text>
        </Group>
        <Stack gap={6} p="sm" bg="dark.7" style={{ borderRadius: 10 }}>
          {LYRICS.map((line) => (
            <Group key={line.time} gap="sm" wrap="nowrap">
              <Text size="xs" c="dimmed" ff="monospace">
                {line.time}
              </Text>
              <Text size="sm" fw={line.current ? 700 : 400} c={line.current ? 'ember.4' : 'gray.4'}>
                {line.text}
              </Text>
            </Group>
          ))}
        </Stack>
      </Stack>
    </Paper>
  );
}
