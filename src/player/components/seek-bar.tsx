import { Box, Group, Slider, Text } from '@mantine/core';
import { useState, type CSSProperties, type KeyboardEvent } from 'react';
import { Waveform } from '@/components/waveform';
import { useWaveform } from '@/data/repositories/use-waveform';
import { formatTime, formatTimeSpoken } from '@/lib/format-time';
import * as actions from '../actions';
import { useCurrentTrack } from '../hooks/use-current-track';
import { usePlaybackProgress } from '../hooks/use-playback-progress';
import { SEEK_STEP_SECONDS } from '../store';
import classes from './seek-bar.module.css';

const FORWARD = new Set(['ArrowRight', 'ArrowUp']);
const BACKWARD = new Set(['ArrowLeft', 'ArrowDown']);

export interface SeekBarProps {
  /** Height of the waveform drawn under the slider (when the track has one). */
  waveformHeight?: number;
  /** Bars of the waveform across the width. */
  waveformBars?: number;
}

/**
 * Elapsed time, the seekable progress bar (click, drag, arrow keys) and the total time. When the
 * current track has waveform peaks, the bar is its waveform (played part coloured) and the
 * slider lies over it: same label, value text and keys, the whole drawing clickable.
 */
export function SeekBar({ waveformHeight = 28, waveformBars = 160 }: SeekBarProps) {
  const { currentTime, duration } = usePlaybackProgress();
  const track = useCurrentTrack();
  const waveform = useWaveform(track?.id);
  const [scrubbing, setScrubbing] = useState<number | null>(null);
  const shown = Math.min(scrubbing ?? currentTime, duration || Number.POSITIVE_INFINITY);

  // Arrows move by 5 s rather than the slider's 1 s step (fine resolution for clicks).
  const onKeyDownCapture = (event: KeyboardEvent) => {
    const direction = FORWARD.has(event.key) ? 1 : BACKWARD.has(event.key) ? -1 : 0;
    if (direction === 0) return;
    event.preventDefault();
    event.stopPropagation();
    actions.seekBy(direction * SEEK_STEP_SECONDS);
  };

  return (
    <Group gap="xs" wrap="nowrap" w="100%">
      <Text size="xs" c="dimmed" miw={40} ta="right" aria-hidden>
        {formatTime(shown)}
      </Text>
      <Box
        flex={1}
        pos="relative"
        onKeyDownCapture={onKeyDownCapture}
        style={{ '--waveform-height': `${waveformHeight}px` } as CSSProperties}
      >
        {waveform ? (
          <Waveform
            data={waveform.data}
            progress={duration > 0 ? shown / duration : 0}
            bars={waveformBars}
            height={waveformHeight}
            className={classes.waveform}
          />
        ) : null}
        <Slider
          classNames={
            waveform
              ? {
                  root: classes.waveRoot,
                  trackContainer: classes.waveTrackContainer,
                  track: classes.waveTrack,
                  bar: classes.waveBar,
                  thumb: classes.waveThumb,
                  label: classes.waveLabel,
                }
              : undefined
          }
          size="sm"
          min={0}
          max={duration > 0 ? duration : 1}
          step={1}
          value={duration > 0 ? shown : 0}
          disabled={duration <= 0}
          label={formatTime}
          thumbLabel="Seek"
          thumbValueText={`${formatTimeSpoken(shown)} of ${formatTimeSpoken(duration)}`}
          onChange={setScrubbing}
          onChangeEnd={(value) => {
            setScrubbing(null);
            actions.seek(value);
          }}
        />
      </Box>
      <Text size="xs" c="dimmed" miw={40} aria-hidden>
        {formatTime(duration)}
      </Text>
    </Group>
  );
}
