import { Button, Group, Modal, Text } from '@mantine/core';
import { useState } from 'react';

export interface ConfirmDeleteDialogProps {
  title: string;
  message: string;
  opened: boolean;
  onClose: () => void;
  onConfirm: () => Promise<void>;
}

/** Spec 2's confirmation wording. */
export const deleteConfirmation = (name: string) =>
  `Are you sure you want to delete "${name}"? This cannot be undone.`;

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
