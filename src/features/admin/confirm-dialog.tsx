import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

export interface ConfirmDialogProps {
  opened: boolean;
  title: string;
  message: ReactNode;
  confirmLabel: string;
  color?: string;
  busy?: boolean;
  children?: ReactNode;
  onConfirm(): void;
  onClose(): void;
}

/** A confirmation for an admin action (focus moves in, Escape cancels, focus returns). */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const {
    opened,
    title,
    message,
    confirmLabel,
    color = 'red',
    busy,
    children,
    onConfirm,
    onClose,
  } = props;
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered>
      <Stack gap="md">
        <Text size="sm">{message}</Text>
        {children}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button color={color} onClick={onConfirm} loading={busy}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
