import { ActionIcon, Group, Slider } from '@mantine/core';
import { IconVolume, IconVolume2, IconVolumeOff } from '@tabler/icons-react';
import * as actions from '../actions';
import { useVolume } from '../hooks/use-volume';

const percent = (value: number) => `${Math.round(value * 100)}%`;

/** Mute toggle (unmute restores the prior volume or 0.7) and a 0..1 volume slider, step 0.01. */
export function VolumeControl() {
  const { volume, muted } = useVolume();
  const Icon = muted || volume === 0 ? IconVolumeOff : volume < 0.5 ? IconVolume2 : IconVolume;
  const label = muted ? 'Unmute' : 'Mute';
  return (
    <Group gap={6} wrap="nowrap">
      <ActionIcon
        variant="subtle"
        color="gray"
        aria-label={label}
        title={label}
        aria-pressed={muted}
        onClick={actions.toggleMute}
      >
        <Icon aria-hidden size="70%" />
      </ActionIcon>
      <Slider
        w={110}
        size="sm"
        min={0}
        max={1}
        step={0.01}
        value={muted ? 0 : volume}
        label={percent}
        thumbLabel="Volume"
        thumbValueText={muted ? 'Muted' : percent(volume)}
        onChange={actions.setVolume}
      />
    </Group>
  );
}
