import { Button, FileButton, Group, Image, Stack, Text } from '@mantine/core';
import { IconPhotoOff, IconPhotoUp } from '@tabler/icons-react';
import { useEffect, useMemo } from 'react';
import { FILE_LIMITS } from '@/lib/constants';

export interface CoverPickerProps {
  cover: File | null;
  /** The cover the track has now (editing), shown while no file is picked. */
  currentUrl?: string | null;
  /** The cover came from the audio file's tags. */
  fromTags: boolean;
  error: string | null;
  disabled: boolean;
  onPick: (file: File) => void;
  onRemove: () => void;
}

/** Spec 2 and 5: the optional Cover Image, JPEG, PNG or WebP under 5 MB, square recommended. */
export function CoverPicker({
  cover,
  currentUrl = null,
  fromTags,
  error,
  disabled,
  onPick,
  onRemove,
}: CoverPickerProps) {
  const picked = useMemo(() => (cover ? URL.createObjectURL(cover) : null), [cover]);
  useEffect(() => () => void (picked && URL.revokeObjectURL(picked)), [picked]);
  const preview = picked ?? currentUrl;
  return (
    <Group gap="lg" align="flex-start" wrap="nowrap">
      {preview ? (
        <Image
          src={preview}
          alt="Cover preview"
          w={112}
          h={112}
          radius="md"
          fit="cover"
          style={{ flexShrink: 0 }}
        />
      ) : (
        <Stack
          w={112}
          h={112}
          align="center"
          justify="center"
          style={{
            flexShrink: 0,
            borderRadius: 'var(--mantine-radius-md)',
            border: '1px dashed var(--mantine-color-dark-3)',
          }}
          aria-hidden
        >
          <IconPhotoOff size={28} color="var(--mantine-color-gray-5)" />
        </Stack>
      )}
      <Stack gap={6} style={{ minWidth: 0 }}>
        <Group gap="xs">
          <FileButton
            onChange={(file) => file && onPick(file)}
            accept={FILE_LIMITS.imageMimeTypes.join(',')}
            disabled={disabled}
            inputProps={{ 'aria-label': 'Cover image file' }}
          >
            {(props) => (
              <Button
                {...props}
                variant="default"
                radius="xl"
                leftSection={<IconPhotoUp size={16} aria-hidden />}
              >
                {preview ? 'Change cover' : 'Choose cover'}
              </Button>
            )}
          </FileButton>
          {preview && (
            <Button
              variant="subtle"
              color="gray"
              radius="xl"
              onClick={onRemove}
              disabled={disabled}
            >
              Remove
            </Button>
          )}
        </Group>
        {fromTags && cover && (
          <Text size="xs" c="ember.3">
            From the audio file&apos;s tags.
          </Text>
        )}
        <Text size="xs" c="gray.4">
          JPEG, PNG or WebP, less than {FILE_LIMITS.coverMaxMb}MB. Square, at least{' '}
          {FILE_LIMITS.coverRecommendedPx}×{FILE_LIMITS.coverRecommendedPx} pixels recommended.
        </Text>
        {error && (
          <Text size="sm" c="red.4" role="alert">
            {error}
          </Text>
        )}
      </Stack>
    </Group>
  );
}
