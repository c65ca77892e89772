import {
  ActionIcon,
  Box,
  Button,
  Group,
  Loader,
  Progress,
  SegmentedControl,
  Slider,
  Stack,
  Text,
} from '@mantine/core';
import { IconAdjustmentsHorizontal } from '@tabler/icons-react';
import { useStems } from '../hooks/use-stems';
import {
  STEM_NAMES,
  applyStemPreset,
  setStemVolume,
  toggleStemMute,
  toggleStemSolo,
  toggleStems,
  type StemName,
  type StemPreset,
} from '../stems';
import classes from './stems-controls.module.css';

const LABEL: Record<StemName, string> = {
  vocals: 'Vocals',
  drums: 'Drums',
  bass: 'Bass',
  other: 'Other',
};

function stemsLabel(status: string, progress: number | null): string {
  if (status === 'loading')
    return progress === null
      ? 'Separating stems…'
      : `Separating stems… ${Math.round(progress * 100)}%`;
  return status === 'on' ? 'Stems: on' : 'Stems: off';
}

/** The Stems toggle of the player bar (an icon; its state in the label and aria-pressed). */
export function StemsButton() {
  const { status, progress } = useStems();
  const on = status === 'on';
  return (
    <ActionIcon
      variant={on ? 'light' : 'subtle'}
      color={on ? undefined : 'gray'}
      aria-label="Stems"
      title={stemsLabel(status, progress)}
      aria-pressed={on}
      aria-busy={status === 'loading'}
      onClick={toggleStems}
    >
      {status === 'loading' ? (
        <Loader size="xs" aria-hidden />
      ) : (
        <IconAdjustmentsHorizontal aria-hidden size="70%" />
      )}
    </ActionIcon>
  );
}

/** A stem's mute or solo switch: a letter, its meaning in the label, its state pressed. */
function StemToggle(props: {
  label: string;
  pressed: boolean;
  color: string;
  onClick: () => void;
  children: string;
}) {
  return (
    <Button
      size="compact-xs"
      variant={props.pressed ? 'filled' : 'default'}
      color={props.pressed ? props.color : undefined}
      aria-pressed={props.pressed}
      aria-label={props.label}
      onClick={props.onClick}
      className={classes.toggle}
    >
      {props.children}
    </Button>
  );
}

/** "Karaoke" (vocals off), "Vocals only", or all four stems. */
function presetOf(mix: Record<StemName, { muted: boolean; solo: boolean }>): StemPreset | '' {
  const soloing = STEM_NAMES.some((n) => mix[n].solo);
  const audible = STEM_NAMES.filter((n) => !mix[n].muted && (!soloing || mix[n].solo));
  if (audible.length === 4) return 'all';
  if (audible.length === 3 && !audible.includes('vocals')) return 'karaoke';
  if (audible.length === 1 && audible[0] === 'vocals') return 'vocals-only';
  return '';
}

/**
 * The stems panel under the player's controls: separation progress, the error, or the mixer —
 * presets and, per stem, mute, solo and volume. Sized for one hand on a phone.
 */
export function StemsPanel() {
  const { status, progress, error, mix, playingSources } = useStems();
  if (status === 'loading') {
    return (
      <Box role="status" aria-live="polite" w="100%" maw={640} mx="auto" py={4}>
        <Text size="xs" c="dimmed">
          {stemsLabel(status, progress)}
        </Text>
        <Progress
          size="xs"
          value={Math.round((progress ?? 0) * 100)}
          aria-label="Stem separation progress"
        />
      </Box>
    );
  }
  if (status === 'error') {
    return (
      <Text size="xs" c="red.4" role="alert" ta="center">
        {error}
      </Text>
    );
  }
  if (status !== 'on') return null;
  return (
    <Stack
      component="section"
      aria-label="Stems mixer"
      gap={6}
      w="100%"
      maw={720}
      mx="auto"
      py={6}
      data-playing-sources={playingSources}
    >
      <Group justify="space-between" gap="xs" wrap="wrap">
        <SegmentedControl
          size="xs"
          classNames={{ root: classes.presets, label: classes.presetLabel }}
          aria-label="Stem presets"
          value={presetOf(mix)}
          onChange={(value) => applyStemPreset(value as StemPreset)}
          data={[
            { value: 'all', label: 'All stems' },
            { value: 'karaoke', label: 'Karaoke' },
            { value: 'vocals-only', label: 'Vocals only' },
          ]}
        />
        <Text size="xs" c="dimmed" aria-live="polite">
          {playingSources > 0 ? `${playingSources} stems playing in sync` : 'Stems ready'}
        </Text>
      </Group>
      <Box className={classes.grid}>
        {STEM_NAMES.map((name) => {
          const c = mix[name];
          return (
            <Group key={name} gap={4} wrap="nowrap" align="center">
              <Text size="xs" fw={600} className={classes.name}>
                {LABEL[name]}
              </Text>
              <StemToggle
                label={`Mute ${LABEL[name].toLowerCase()}`}
                pressed={c.muted}
                color="red"
                onClick={() => toggleStemMute(name)}
              >
                M
              </StemToggle>
              <StemToggle
                label={`Solo ${LABEL[name].toLowerCase()}`}
                pressed={c.solo}
                color="yellow"
                onClick={() => toggleStemSolo(name)}
              >
                S
              </StemToggle>
              <Slider
                flex={1}
                size="sm"
                className={classes.slider}
                classNames={{ thumb: classes.thumb }}
                min={0}
                max={1}
                step={0.05}
                value={c.volume}
                onChange={(v) => setStemVolume(name, v)}
                label={(v) => `${Math.round(v * 100)}%`}
                thumbProps={{ 'aria-label': `${LABEL[name]} volume` }}
              />
            </Group>
          );
        })}
      </Box>
    </Stack>
  );
}
