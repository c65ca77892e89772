import { Notification, Stack } from '@mantine/core';
import { IconCheck, IconX } from '@tabler/icons-react';
import { useSyncExternalStore } from 'react';
import { dismissToast, getToasts, subscribeToasts } from './toast-store';

/** Renders the toasts top-right; errors are announced assertively, the rest politely. */
export function Toaster() {
  const toasts = useSyncExternalStore(subscribeToasts, getToasts, getToasts);
  return (
    <Stack
      gap="xs"
      pos="fixed"
      top={16}
      right={16}
      w="min(360px, calc(100vw - 32px))"
      style={{ zIndex: 1000, pointerEvents: toasts.length ? 'auto' : 'none' }}
    >
      {toasts.map((t) => (
        <Notification
          key={t.id}
          role={t.kind === 'error' ? 'alert' : 'status'}
          color={t.kind === 'error' ? 'red' : t.kind === 'success' ? 'teal' : 'ember'}
          icon={
            t.kind === 'error' ? (
              <IconX size={18} aria-hidden />
            ) : t.kind === 'success' ? (
              <IconCheck size={18} aria-hidden />
            ) : undefined
          }
          withBorder
          onClose={() => dismissToast(t.id)}
          closeButtonProps={{ 'aria-label': 'Dismiss notification' }}
        >
          {t.message}
        </Notification>
      ))}
    </Stack>
  );
}
