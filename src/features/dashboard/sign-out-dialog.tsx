import { Button, Group, Modal, Text } from '@mantine/core';

/** Asks before signing out while changes are still waiting for the server. */
export function SignOutDialog({
  pending,
  onCancel,
  onConfirm,
}: {
  pending: number | null;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  return (
    <Modal
      opened={pending !== null}
      onClose={onCancel}
      title="Sign out with unsynced changes?"
      centered
    >
      <Text size="sm" mb="lg">
        {pending === 1 ? '1 change has' : `${pending ?? 0} changes have`} not reached the server
        yet. They stay on this device and are sent the next time you sign in here.
      </Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel}>
          Stay signed in
        </Button>
        <Button color="red" onClick={onConfirm}>
          Sign out anyway
        </Button>
      </Group>
    </Modal>
  );
}
