import { Alert } from '@mantine/core';
import { IconClockPause } from '@tabler/icons-react';
import { fetchSuspendedUntil } from '@/data/remote/moderation-remote';
import { useServerRead } from '@/data/repositories/use-server-read';

/** '6 December 2026' (UTC, as the e-mails write it). */
export const suspensionDate = (iso: string) =>
  new Date(iso).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });

/** Until when `userId` is suspended (`suspended_until`, public), null when they are not. */
export function useSuspendedUntil(userId: string | null | undefined): string | null {
  const read = useServerRead(() => fetchSuspendedUntil(userId ?? ''), userId ?? null);
  return read.data ?? null;
}

/**
 * The line an account's public pages and the owner's upload page show while it is suspended
 * (issue 31; docs/trust-and-safety.md § Public pages). Nothing while it is not, or while unknown.
 */
export function SuspendedNotice({ userId, own = false }: { userId: string | null; own?: boolean }) {
  const until = useSuspendedUntil(userId);
  if (!until) return null;
  const date = suspensionDate(until);
  return (
    <Alert
      color="yellow"
      variant="light"
      icon={<IconClockPause size={20} aria-hidden />}
      data-testid="suspended-notice"
    >
      {own
        ? `Your account is suspended until ${date}: uploads are paused.`
        : `This account is suspended until ${date}.`}
    </Alert>
  );
}
