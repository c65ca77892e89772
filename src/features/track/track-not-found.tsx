import { Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconMusicOff } from '@tabler/icons-react';
import { ButtonLink } from '@/components/router-links';

/** Spec 8: an unknown track id. */
export function TrackNotFound() {
  return (
    <Stack align="center" gap="md" py={64} ta="center">
      <ThemeIcon size={64} radius="xl" variant="light" color="gray">
        <IconMusicOff size={32} aria-hidden />
      </ThemeIcon>
      <Title order={1}>Track Not Found</Title>
      <Text c="dimmed" maw={420}>
        This track may have been removed, or the link is not quite right.
      </Text>
      <ButtonLink to="/explore" variant="filled">
        Browse all tracks
      </ButtonLink>
    </Stack>
  );
}
