import { Button, Group, Modal, Text } from '@mantine/core';
import { useState } from 'react';

export interface DeletePlaylistDialogProps {
  name: string;
  opened: boolean;
  onClose: () => void;
  onConfirm: () => Promise<void>;
}

/** Spec 2's confirmation, verbatim. */
export const deleteConfirmation = (name: string) =>
  `Are you sure you want to delete "${name}"? This cannot be undone.`;

export function DeletePlaylistDialog({
  name,
  opened,
  onClose,
  onConfirm,
}: DeletePlaylistDialogProps) {
  const [busy, setBusy] = useState(false);
  return (
    <Modal opened={opened} onClose={onClose} title="Delete playlist" centered radius="md">
      <Text size="sm">{deleteConfirmation(name)}</Text>
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
