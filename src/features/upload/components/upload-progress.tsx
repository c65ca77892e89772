import {
  Group,
  Loader,
  Paper,
  Progress,
  Stack,
  Text,
  ThemeIcon,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconCheck, IconWifiOff } from '@tabler/icons-react';
import type { UploadPhase } from '../use-upload-flow';
import { STAGES, stageLabel } from '../upload-stages';
import { formatBytes } from '../upload-rules';

function Stages({ stage, progress }: { stage: string | null; progress: number | null }) {
  const at = STAGES.findIndex((s) => s.id === stage);
  return (
    <Stack gap={8} component="ol" m={0} p={0} style={{ listStyle: 'none' }}>
      {STAGES.map((s, i) => {
        const state = at < 0 || i > at ? 'todo' : i < at ? 'done' : 'current';
        return (
          <Group key={s.id} component="li" gap="sm" wrap="nowrap" data-state={state}>
            <ThemeIcon
              size={22}
              radius="xl"
              variant={state === 'done' ? 'filled' : 'light'}
              color={state === 'todo' ? 'gray' : 'ember'}
              aria-hidden
            >
              {state === 'done' ? (
                <IconCheck size={14} />
              ) : state === 'current' ? (
                <Loader size={12} color="ember" />
              ) : null}
            </ThemeIcon>
            <Text size="sm" c={state === 'todo' ? 'gray.5' : undefined}>
              {s.label}
              {state === 'current' && progress !== null && ` (${Math.round(progress * 100)}%)`}
              <VisuallyHidden>
                {state === 'done' ? ', done' : state === 'current' ? ', in progress' : ''}
              </VisuallyHidden>
            </Text>
          </Group>
        );
      })}
    </Stack>
  );
}

/** True progress: the bytes sent, then the server's stages; never a timer. */
export function UploadProgress({ phase, title }: { phase: UploadPhase; title: string }) {
  if (phase.kind === 'idle' || phase.kind === 'success') return null;
  const percent =
    phase.kind === 'uploading' ? (phase.total ? (phase.sent / phase.total) * 100 : 0) : 100;
  return (
    <Paper p="lg" radius="md" withBorder>
      <Stack gap="md">
        <Title order={2} size="h3">
          Uploading “{title}”
        </Title>
        <Stack gap={6}>
          <Progress
            value={percent}
            size="lg"
            radius="xl"
            animated={phase.kind === 'uploading' && !phase.reconnecting}
            aria-label="Upload progress"
          />
          <Group justify="space-between" gap="xs" role="status" aria-live="polite">
            {phase.kind === 'uploading' ? (
              phase.reconnecting ? (
                <Group gap={6} c="yellow.4">
                  <IconWifiOff size={16} aria-hidden />
                  <Text size="sm">Reconnecting…</Text>
                </Group>
              ) : (
                <Text size="sm" data-testid="upload-bytes">
                  {formatBytes(phase.sent)} of {formatBytes(phase.total)} sent
                </Text>
              )
            ) : (
              <Text size="sm">
                {phase.kind === 'saving' ? 'Saving the track details…' : 'Audio uploaded'}
              </Text>
            )}
            <Text size="sm" fw={600}>
              {Math.round(percent)}%
            </Text>
          </Group>
        </Stack>
        {phase.kind === 'processing' && (
          <Stack gap="xs">
            <Text size="sm" fw={600} role="status" data-testid="processing-stage">
              Processing: {stageLabel(phase.stage)}
            </Text>
            <Stages stage={phase.stage} progress={phase.progress} />
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
