import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { ButtonLink } from '@/components/router-links';
import { PREMIUM_ONLY_MESSAGE } from '@/data';
import { usePaymentsStatus } from '@/data/payments-status';

/** What the prompt says while it cannot offer an upgrade (unknown yet, or PAYMENTS=off). */
export const DOWNLOADS_ARE_PREMIUM = 'Downloads are part of Premium.';

/**
 * The upgrade prompt of a Download button on plans without offline listening. Its own module:
 * the lists that show a Download button load Mantine's Modal only when the prompt first opens.
 * It offers Premium only while the server sells paid plans (`payments-status`); with
 * PAYMENTS=off it says downloads are part of Premium and gives the server's notice instead.
 */
export function DownloadUpgradePrompt({
  opened,
  onClose,
}: {
  opened: boolean;
  onClose: () => void;
}) {
  const payments = usePaymentsStatus();
  return (
    <Modal opened={opened} onClose={onClose} title="Listen offline" centered>
      <Stack gap="md">
        {payments.offersUpgrades ? (
          <Text size="sm">{PREMIUM_ONLY_MESSAGE}</Text>
        ) : (
          <Text size="sm">
            {DOWNLOADS_ARE_PREMIUM}
            {payments.notice ? (
              <>
                {' '}
                <span data-testid="payments-off-notice">{payments.notice}</span>
              </>
            ) : null}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {payments.offersUpgrades ? 'Not now' : 'Close'}
          </Button>
          {payments.offersUpgrades ? (
            <ButtonLink to="/subscription">Upgrade to Premium</ButtonLink>
          ) : null}
        </Group>
      </Stack>
    </Modal>
  );
}
