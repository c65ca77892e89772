import { Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { usePaymentsStatus } from '@/data/payments-status';

/**
 * An offer to upgrade (a link to /subscription), shown only while the server sells paid plans
 * (`payments-status`, docs/production.md "Payments off"): with PAYMENTS=off the server's notice
 * takes its place (or nothing, `notice={false}`); while the answer is unknown, nothing.
 */
export function UpgradeOffer({
  children,
  notice = true,
}: {
  children: ReactNode;
  notice?: boolean;
}) {
  const status = usePaymentsStatus();
  if (status.offersUpgrades) return <>{children}</>;
  if (!notice || !status.notice) return null;
  return (
    <Text size="sm" c="gray.4" data-testid="payments-off-notice">
      {status.notice}
    </Text>
  );
}
