import { Text } from '@mantine/core';

/** Data export and account deletion (issue 32): placeholder until that work lands here. */
export function PrivacySection() {
  return (
    <Text size="sm" c="dimmed">
      Data export and account deletion will appear here.
    </Text>
  );
}
