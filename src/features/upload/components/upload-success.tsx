import { Button, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { useNavigate } from '@tanstack/react-router';
import { useEffect } from 'react';
import { ButtonLink } from '@/components/router-links';
import { UPLOAD_REDIRECT_MS } from '@/lib/constants';

/** Spec 2 and 4: 'Upload Successful!', then /library after 2 s unless the artist chooses. */
export function UploadSuccess({ title, onAnother }: { title: string; onAnother: () => void }) {
  const navigate = useNavigate();
  useEffect(() => {
    const timer = setTimeout(() => void navigate({ to: '/library' }), UPLOAD_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [navigate]);
  return (
    <Paper p="xl" radius="md" withBorder>
      <Stack align="center" ta="center" gap="md" role="status">
        <ThemeIcon size={64} radius="xl" variant="light" color="green" aria-hidden>
          <IconCircleCheck size={36} />
        </ThemeIcon>
        <Title order={2}>Upload Successful!</Title>
        <Text c="gray.3">
          “{title}” is processed and ready to play. Taking you to your library…
        </Text>
        <Group justify="center" gap="sm">
          <ButtonLink to="/library" search={{ tab: 'uploads' }} radius="xl">
            Go to My Uploads
          </ButtonLink>
          <Button variant="default" radius="xl" onClick={onAnother}>
            Upload Another Track
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
