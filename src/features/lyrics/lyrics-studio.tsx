import { Alert, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { IconPlayerPauseFilled, IconPlayerPlayFilled, IconPlus } from '@tabler/icons-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { toast } from '@/components/toast';
import { normaliseLyricLines, useAllTracks, type Lyrics, type Track } from '@/data';
import { toPlayerTrack, toPlayerTracks } from '@/features/catalogue';
import { formatTime } from '@/lib/format-time';
import { lrcFileName, toLrc } from '@/lib/lrc';
import {
  playerActions,
  pressToPrime,
  useCurrentTrack,
  useIsPlaying,
  usePlaybackProgress,
} from '@/player';
import { LrcTools } from './lrc-tools';
import { downloadText } from './download-text';
import { saveErrorMessage, saveLyrics } from './save-lyrics';
import { StudioLineRow } from './studio-line-row';
import {
  addRow,
  removeRow,
  rowsFromLines,
  rowsFromLrc,
  rowsToLines,
  updateRow,
  type StudioRow,
} from './studio-rows';

export interface LyricsStudioProps {
  track: Track;
  lyrics: Lyrics | null;
  /** Back to view mode (after a save or on Cancel). */
  onDone: () => void;
}

/** Edit mode for the uploader: timed lines, stamping, LRC import/export, save. */
export function LyricsStudio({ track, lyrics, onDone }: LyricsStudioProps) {
  const [rows, setRows] = useState<StudioRow[]>(() => rowsFromLines(lyrics?.lines));
  const [error, setError] = useState<{ title: string; message: string } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  /** The row whose text field takes focus after the next render (a line just added). */
  const focusId = useRef<string | null>(null);

  const current = useCurrentTrack();
  const playing = useIsPlaying();
  const { currentTime } = usePlaybackProgress();
  const isCurrent = current?.id === track.id;
  const all = useAllTracks();
  const catalogue = useMemo(() => toPlayerTracks(all), [all]);

  useEffect(() => {
    if (!focusId.current) return;
    document.querySelector<HTMLInputElement>(`[data-lyric-input="${focusId.current}"]`)?.focus();
    focusId.current = null;
  }, [rows]);

  const edit = (next: StudioRow[]) => {
    setRows(next);
    setError(null);
    setNotice(null);
  };
  const insertAfter = (index: number) => {
    const next = addRow(rows, index);
    edit(next);
    focusId.current = next[index + 1]?.id ?? null;
  };
  const kept = normaliseLyricLines(rowsToLines(rows));

  const save = async () => {
    setSaving(true);
    setError(null);
    try {
      await saveLyrics(track.id, rows);
      toast.success('Lyrics saved');
      onDone();
    } catch (e) {
      setError({ title: 'Unable to save lyrics', message: saveErrorMessage(e) });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Stack gap="md" aria-label="Lyrics studio" role="group">
      <Paper p="sm" radius="md" bg="dark.7" withBorder>
        <Group justify="space-between" gap="sm">
          <Group gap="sm">
            <Button
              size="xs"
              radius="xl"
              variant={isCurrent && playing ? 'light' : 'filled'}
              leftSection={
                isCurrent && playing ? (
                  <IconPlayerPauseFilled size={14} aria-hidden />
                ) : (
                  <IconPlayerPlayFilled size={14} aria-hidden />
                )
              }
              {...pressToPrime(() => toPlayerTrack(track))}
              onClick={() => playerActions.playFromTrackPage(toPlayerTrack(track), catalogue)}
            >
              {isCurrent && playing ? 'Pause track' : 'Play track'}
            </Button>
            <Text size="sm" c="dimmed" aria-live="off" ff="monospace">
              {isCurrent ? formatTime(currentTime) : '0:00'} / {formatTime(track.duration)}
            </Text>
          </Group>
          <Text size="xs" c="dimmed">
            Times as mm:ss or seconds. Stamp sets a line to the playback time.
          </Text>
        </Group>
      </Paper>

      <LrcTools
        canExport={kept.length > 0}
        onImport={(lines) => {
          edit(rowsFromLrc(lines));
          setNotice(`Imported ${lines.length} ${lines.length === 1 ? 'line' : 'lines'}.`);
        }}
        onError={(message) => setError({ title: 'Unable to import lyrics', message })}
        onExport={() =>
          downloadText(
            lrcFileName(track.artist, track.title),
            toLrc(kept, {
              title: track.title,
              artist: track.artist,
              album: track.album ?? undefined,
              length: track.duration,
            }),
          )
        }
      />

      <Stack
        gap={6}
        component="ol"
        m={0}
        p={0}
        style={{ listStyle: 'none' }}
        aria-label="Lyric lines"
      >
        {rows.map((row, index) => (
          <li key={row.id}>
            <StudioLineRow
              row={row}
              index={index}
              playbackTime={isCurrent ? currentTime : null}
              canRemove={rows.length > 1}
              onChange={(change) => edit(updateRow(rows, index, change))}
              onRemove={() => edit(removeRow(rows, index))}
              onEnter={() => insertAfter(index)}
            />
          </li>
        ))}
      </Stack>

      <Group justify="space-between" gap="sm">
        <Button
          variant="default"
          leftSection={<IconPlus size={16} aria-hidden />}
          onClick={() => insertAfter(rows.length - 1)}
        >
          Add line
        </Button>
        <Group gap="sm">
          <Button variant="subtle" color="gray" onClick={onDone} disabled={saving}>
            Cancel
          </Button>
          <Button onClick={() => void save()} loading={saving}>
            Save lyrics
          </Button>
        </Group>
      </Group>

      {notice ? (
        <Text size="sm" c="teal.4" role="status">
          {notice}
        </Text>
      ) : null}
      {error ? (
        <Alert color="red" variant="light" title={error.title} role="alert">
          {error.message}
        </Alert>
      ) : null}
    </Stack>
  );
}
