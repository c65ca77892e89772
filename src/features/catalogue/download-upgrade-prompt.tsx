import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { ButtonLink } from '@/components/router-links';
import { PREMIUM_ONLY_MESSAGE } from '@/data';

/**
 * The upgrade prompt of a Download button on plans without offline listening. Its own module:
 * the lists that show a Download button load Mantine's Modal only when the prompt first opens.
 */
export function DownloadUpgradePrompt({
  opened,
  onClose,
}: {
  opened: boolean;
  onClose: () => void;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title="Listen offline" centered>
      <Stack gap="md">
        <Text size="sm">{PREMIUM_ONLY_MESSAGE}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Not now
          </Button>
          <ButtonLink to="/subscription">Upgrade to Premium</ButtonLink>
        </Group>
      </Stack>
    </Modal>
  );
}
