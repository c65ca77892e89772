import { Container, Stack, Text, Title } from '@mantine/core';
import { createFileRoute } from '@tanstack/react-router';
import { PrivacySection } from '@/features/settings/privacy-section';
import { titleHead } from '@/lib/page-title';

/**
 * /settings/privacy: the privacy section on a page of its own (docs/privacy-rights.md). /settings
 * mounts the same `PrivacySection`; this page is what the deletion notice and emails link to.
 */
export const Route = createFileRoute('/_app/settings_/privacy')({
  head: titleHead('Privacy'),
  component: PrivacyPage,
});

function PrivacyPage() {
  return (
    <Container size="md" py={{ base: 'md', sm: 'xl' }} px={{ base: 'sm', sm: 'lg' }}>
      <Stack gap="lg">
        <div>
          <Title order={1}>Privacy</Title>
          <Text c="dimmed">Your data and your account.</Text>
        </div>
        <PrivacySection />
      </Stack>
    </Container>
  );
}
