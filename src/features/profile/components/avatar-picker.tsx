import { Button, FileButton, Group, Stack, Text } from '@mantine/core';
import { IconPhotoUp } from '@tabler/icons-react';
import { PersonAvatar } from '@/features/catalogue';
import { FILE_LIMITS } from '@/lib/constants';

export interface AvatarPickerProps {
  name: string;
  /** The current avatar, or the chosen file's preview. */
  src: string | null;
  error: string | null;
  onPick: (file: File | null) => void;
  disabled?: boolean;
}

/** Spec 5: png, jpeg or webp under 2 MB; uploaded on Save. */
export function AvatarPicker({ name, src, error, onPick, disabled }: AvatarPickerProps) {
  return (
    <Group gap="lg" align="center">
      <PersonAvatar src={src} name={name || '?'} size={96} />
      <Stack gap={6}>
        <FileButton
          onChange={onPick}
          accept={FILE_LIMITS.imageMimeTypes.join(',')}
          inputProps={{ 'aria-label': 'Avatar image file' }}
          disabled={disabled}
        >
          {(props) => (
            <Button
              {...props}
              variant="default"
              radius="xl"
              leftSection={<IconPhotoUp size={16} aria-hidden />}
            >
              Change avatar
            </Button>
          )}
        </FileButton>
        <Text size="xs" c="gray.4">
          PNG, JPEG or WebP, under {FILE_LIMITS.avatarMaxMb}MB.
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
