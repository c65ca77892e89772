import { Alert, Badge, Button, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconEdit, IconMicrophone2 } from '@tabler/icons-react';
import { useState } from 'react';
import { type Track } from '@/data';
import { useLyricsLoad } from '@/data/repositories/track-page-hooks';
import { useCurrentUserId } from '@/features/catalogue';
import { hasTimings } from '@/lib/lyrics-time';
import { LyricsStudio } from './lyrics-studio';
import { LyricsView } from './lyrics-view';

export const EMPTY_LYRICS = "Lyrics haven't been added yet.";
export const LOAD_FAILED = 'Unable to load lyrics';

/**
 * The track page's lyrics (spec 2, 4): view mode for everyone; the lyrics studio (edit mode) only
 * for the track's uploader. The server refuses anyone else's save as well (RLS).
 */
export function LyricsSection({ track }: { track: Track }) {
  const load = useLyricsLoad(track.id);
  const userId = useCurrentUserId();
  const isUploader = Boolean(userId) && userId === track.uploadedBy;
  const [editing, setEditing] = useState(false);
  const lines = load.lyrics?.lines ?? [];
  const synced = Boolean(load.lyrics?.isSynced) && hasTimings(lines);
  const studio = editing && isUploader;

  return (
    <Paper component="section" aria-labelledby="track-lyrics" p="lg" radius="lg" bg="dark.6">
      <Group justify="space-between" mb="md" gap="sm">
        <Group gap="xs">
          <Title id="track-lyrics" order={2} size="h3">
            {studio ? 'Lyrics studio' : 'Lyrics'}
          </Title>
          {synced && !studio ? (
            <Badge variant="light" color="ember" size="sm">
              Synced
            </Badge>
          ) : null}
        </Group>
        {isUploader && !studio && load.status === 'ready' ? (
          <Button
            variant="light"
            size="xs"
            radius="xl"
            leftSection={<IconEdit size={14} aria-hidden />}
            onClick={() => setEditing(true)}
          >
            {lines.length ? 'Edit lyrics' : 'Add lyrics'}
          </Button>
        ) : null}
      </Group>
      {load.status === 'loading' ? (
        <Stack gap="sm" aria-busy="true" aria-label="Loading lyrics">
          {[80, 65, 90, 55].map((w) => (
            <Skeleton key={w} height={22} width={`${w}%`} />
          ))}
        </Stack>
      ) : load.status === 'error' ? (
        <Alert color="red" variant="light" title={LOAD_FAILED}>
          Check your connection; lyrics load again when you come back to this page.
        </Alert>
      ) : studio ? (
        <LyricsStudio track={track} lyrics={load.lyrics} onDone={() => setEditing(false)} />
      ) : lines.length ? (
        <LyricsView track={track} lines={lines} synced={synced} />
      ) : (
        <Stack align="center" gap={6} py="lg" ta="center">
          <IconMicrophone2 size={28} aria-hidden color="var(--mantine-color-dark-2)" />
          <Text c="dimmed">{EMPTY_LYRICS}</Text>
        </Stack>
      )}
    </Paper>
  );
}
