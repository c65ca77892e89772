import { Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconSparkles } from '@tabler/icons-react';
import { ButtonLink } from '@/components/router-links';

/** Free plan only (spec 2): View Plans / Upgrade Now, both to /subscription. */
export function UpgradeBanner() {
  return (
    <Paper
      component="section"
      aria-labelledby="home-upgrade-title"
      className="home-banner"
      radius="lg"
      p={{ base: 'md', sm: 'lg' }}
    >
      <Group justify="space-between" align="center" gap="md">
        <Group gap="md" wrap="nowrap" align="flex-start" style={{ flex: '1 1 320px' }}>
          <IconSparkles
            size={28}
            color="var(--mantine-color-ember-4)"
            aria-hidden
            style={{ flex: 'none' }}
          />
          <Stack gap={4}>
            <Title order={2} fz="h4" id="home-upgrade-title">
              Go ad-free with Premium
            </Title>
            <Text size="sm" c="gray.4">
              Lossless sound, offline downloads and no interruptions. Your music, the way it was
              mixed.
            </Text>
          </Stack>
        </Group>
        <Group gap="sm" wrap="nowrap">
          <ButtonLink to="/subscription" variant="default">
            View Plans
          </ButtonLink>
          <ButtonLink to="/subscription">Upgrade Now</ButtonLink>
        </Group>
      </Group>
    </Paper>
  );
}
