import { Button, Container, Group, Loader, Stack } from '@mantine/core';
import { IconShieldLock } from '@tabler/icons-react';
import { useNavigate } from '@tanstack/react-router';
import { useState, type ReactNode } from 'react';
import { ButtonLink } from '@/components/router-links';
import { toast } from '@/components/toast';
import { logout } from '@/data/auth';
import { fetchAdminAccess } from '@/data/remote/admin-access-remote';
import { useServerRead } from '@/data/repositories/use-server-read';
import { AdminNotice } from './admin-denied';

/**
 * The admin pages behind PostgreSQL's answer: with ADMIN_REQUIRE_MFA on, an admin without
 * two-factor sign-in (or a session that has not answered it) has no admin powers, and is told
 * why and where to turn it on (docs/account.md). A failed check shows the pages, whose reads
 * report their own errors: the database decides either way.
 */
export function AdminGate({ children }: { children: ReactNode }) {
  const access = useServerRead(fetchAdminAccess, 'admin-access');
  if (access.loading)
    return (
      <Container size="sm" py={64}>
        <Stack align="center" role="status" aria-label="Checking administrator access">
          <Loader size="sm" aria-hidden />
        </Stack>
      </Container>
    );
  if (access.data === 'set_up_two_factor' || access.data === 'confirm_two_factor')
    return <AdminNeedsTwoFactor setUp={access.data === 'set_up_two_factor'} />;
  return children;
}

/** As the /login code step's: ends the session (it may be a half-open aal1 one) and leaves. */
function CancelAndSignOut() {
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const cancel = () => {
    setBusy(true);
    logout()
      .then(() => navigate({ to: '/login' }))
      .catch((e: unknown) => toast.error(e instanceof Error ? e.message : 'Failed to logout'))
      .finally(() => setBusy(false));
  };
  return (
    <Button variant="subtle" color="gray" loading={busy} onClick={cancel}>
      Cancel and sign out
    </Button>
  );
}

function AdminNeedsTwoFactor({ setUp }: { setUp: boolean }) {
  return (
    <AdminNotice
      icon={<IconShieldLock size={32} />}
      color="orange"
      title="Two-factor sign-in required"
      text={
        setUp
          ? 'Administrators must use two-factor sign-in. Turn it on in Settings › Security, then come back to this page.'
          : 'Enter the code from your authenticator app to use administrator access.'
      }
      action={
        <Group justify="center" gap="sm">
          {setUp ? (
            <ButtonLink to="/settings">Set up two-factor sign-in</ButtonLink>
          ) : (
            <ButtonLink to="/login">Enter your code</ButtonLink>
          )}
          <CancelAndSignOut />
        </Group>
      }
    />
  );
}
