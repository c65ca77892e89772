import { ActionIcon, Group, TextInput, Tooltip } from '@mantine/core';
import { IconClockPin, IconTrash } from '@tabler/icons-react';
import { formatTimestamp, parseTimestamp } from '@/lib/lyrics-time';
import type { StudioRow } from './studio-rows';
import classes from './lyrics.module.css';

export interface StudioLineRowProps {
  row: StudioRow;
  index: number;
  /** Null when the track is not the one playing (nothing to stamp from). */
  playbackTime: number | null;
  canRemove: boolean;
  onChange: (change: Partial<Omit<StudioRow, 'id'>>) => void;
  onRemove: () => void;
  /** Enter in the text field: a new line after this one. */
  onEnter: () => void;
}

/** One line of the lyrics studio: timestamp ('mm:ss' or seconds), stamp, text, remove. */
export function StudioLineRow({
  row,
  index,
  playbackTime,
  canRemove,
  onChange,
  onRemove,
  onEnter,
}: StudioLineRowProps) {
  const n = index + 1;
  return (
    <Group gap="xs" wrap="nowrap" align="center" className={classes.studioRow}>
      <TextInput
        aria-label={`Timestamp of line ${n}`}
        value={row.time}
        placeholder="mm:ss"
        w={96}
        styles={{ input: { fontVariantNumeric: 'tabular-nums', textAlign: 'center' } }}
        onChange={(e) => onChange({ time: e.currentTarget.value })}
        onBlur={(e) => onChange({ time: formatTimestamp(parseTimestamp(e.currentTarget.value)) })}
      />
      <Tooltip
        label={playbackTime === null ? 'Play this track to stamp' : 'Stamp with playback time'}
        withinPortal
      >
        <ActionIcon
          variant="light"
          size="lg"
          aria-label={`Stamp line ${n} with the current playback time`}
          disabled={playbackTime === null}
          onClick={() => {
            if (playbackTime !== null) onChange({ time: formatTimestamp(playbackTime) });
          }}
        >
          <IconClockPin size={18} aria-hidden />
        </ActionIcon>
      </Tooltip>
      <TextInput
        aria-label={`Lyric line ${n}`}
        placeholder="Lyric line"
        value={row.text}
        data-lyric-input={row.id}
        style={{ flex: 1, minWidth: 0 }}
        onChange={(e) => onChange({ text: e.currentTarget.value })}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.nativeEvent.isComposing) {
            e.preventDefault();
            onEnter();
          }
        }}
      />
      <ActionIcon
        variant="subtle"
        color="gray"
        size="lg"
        aria-label={`Remove line ${n}`}
        disabled={!canRemove}
        onClick={onRemove}
      >
        <IconTrash size={18} aria-hidden />
      </ActionIcon>
    </Group>
  );
}
