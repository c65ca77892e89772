import { Box, Button, FileButton, Group, Paper, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconFileMusic, IconUpload } from '@tabler/icons-react';
import { useState, type DragEvent } from 'react';
import { formatTime } from '@/lib/format-time';
import { FILE_LIMITS } from '@/lib/constants';
import { formatBytes } from '../upload-rules';

export interface PickedAudio {
  file: File;
  duration: number | null;
  format: string | null;
}

export interface AudioDropZoneProps {
  picked: PickedAudio | null;
  /** Tags are being read from the picked file. */
  reading: boolean;
  error: string | null;
  disabled: boolean;
  onPick: (file: File) => void;
}

const ACCEPT = ['audio/*', '.mp3', '.wav', '.ogg', '.oga', '.opus', '.flac'].join(',');

/** Spec 2: the Audio File section, drag and drop plus a file picker. */
export function AudioDropZone({ picked, reading, error, disabled, onPick }: AudioDropZoneProps) {
  const [over, setOver] = useState(false);
  const drop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    const file = event.dataTransfer.files[0];
    if (file && !disabled) onPick(file);
  };
  const dragOver = (event: DragEvent) => {
    event.preventDefault();
    event.dataTransfer.dropEffect = disabled ? 'none' : 'copy';
    setOver(true);
  };
  return (
    <Stack gap="xs">
      <Paper
        data-testid="audio-drop-zone"
        onDragOver={dragOver}
        onDragEnter={dragOver}
        onDragLeave={() => setOver(false)}
        onDrop={drop}
        p="lg"
        radius="md"
        style={{
          border: `2px dashed var(--mantine-color-${over ? 'ember-5' : error ? 'red-5' : 'dark-3'})`,
          background: over ? 'var(--mantine-color-dark-6)' : undefined,
        }}
      >
        <Group gap="md" wrap="wrap" align="center">
          <ThemeIcon
            size={48}
            radius="xl"
            variant="light"
            color="ember"
            aria-hidden
            visibleFrom="xs"
          >
            <IconFileMusic size={26} />
          </ThemeIcon>
          <Box style={{ minWidth: 180, flex: 1 }}>
            {picked ? (
              <>
                <Text fw={600} truncate="end" data-testid="audio-file-name">
                  {picked.file.name}
                </Text>
                <Text size="sm" c="gray.4">
                  {[
                    formatBytes(picked.file.size),
                    picked.format,
                    picked.duration ? formatTime(picked.duration) : null,
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                  {reading && ' · reading tags…'}
                </Text>
              </>
            ) : (
              <>
                <Text fw={600}>Drag and drop your audio file here</Text>
                <Text size="sm" c="gray.4">
                  MP3, WAV, OGG or FLAC, less than {FILE_LIMITS.audioMaxMb}MB.
                </Text>
              </>
            )}
          </Box>
          <FileButton
            onChange={(file) => file && onPick(file)}
            accept={ACCEPT}
            disabled={disabled}
            inputProps={{ 'aria-label': 'Audio file' }}
          >
            {(props) => (
              <Button
                {...props}
                variant="default"
                radius="xl"
                leftSection={<IconUpload size={16} aria-hidden />}
              >
                {picked ? 'Change file' : 'Choose file'}
              </Button>
            )}
          </FileButton>
        </Group>
      </Paper>
      {error && (
        <Text size="sm" c="red.4" role="alert" id="audio-file-error">
          {error}
        </Text>
      )}
    </Stack>
  );
}
