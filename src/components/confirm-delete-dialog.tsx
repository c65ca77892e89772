import { Button, Group, Modal, Text } from '@mantine/core';
import { useState } from 'react';
import type { ConfirmDeleteDialogProps } from './delete-confirmation';

export { deleteConfirmation } from './delete-confirmation';

/** A delete confirmation: Cancel (focused first) or Delete, busy while the delete runs. */
export function ConfirmDeleteDialog({
  title,
  message,
  opened,
  onClose,
  onConfirm,
}: ConfirmDeleteDialogProps) {
  const [busy, setBusy] = useState(false);
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered radius="md">
      <Text size="sm">{message}</Text>
      <Group justify="flex-end" mt="lg" gap="sm">
        <Button variant="default" onClick={onClose} disabled={busy} data-autofocus>
          Cancel
        </Button>
        <Button
          color="red"
          loading={busy}
          onClick={() => {
            setBusy(true);
            void onConfirm().finally(() => setBusy(false));
          }}
        >
          Delete
        </Button>
      </Group>
    </Modal>
  );
}
