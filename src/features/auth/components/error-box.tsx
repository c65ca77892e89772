import { Alert } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';

/** Spec 8: auth errors show in a red box. */
export function ErrorBox({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <Alert color="red" variant="light" icon={<IconAlertCircle aria-hidden />} role="alert">
      {message}
    </Alert>
  );
}
