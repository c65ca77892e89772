/**
 * After signing in during an account deletion's grace period (docs/privacy-rights.md): a dialog
 * says when the account will be deleted and offers to keep it. Loaded by the signed-in frame
 * once the page is idle; renders nothing when no deletion is scheduled.
 */
import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import {
  cancelAccountDeletion,
  fetchScheduledDeletion,
  type ScheduledDeletion,
} from '@/data/remote/account-remote';

const dateOf = (iso: string) =>
  new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric' });

export default function DeletionPendingNotice() {
  const [scheduled, setScheduled] = useState<ScheduledDeletion | null>(null);
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [kept, setKept] = useState(false);

  useEffect(() => {
    let live = true;
    fetchScheduledDeletion()
      .then((found) => {
        if (!live || !found || found.running) return;
        setScheduled(found);
        setOpen(true);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);

  if (!scheduled) return null;
  const keep = async () => {
    setBusy(true);
    setError(null);
    try {
      await cancelAccountDeletion();
      setKept(true);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      opened={open}
      onClose={() => setOpen(false)}
      title="Your account is scheduled for deletion"
      closeButtonProps={{ 'aria-label': 'Close' }}
      centered
    >
      {kept ? (
        <Stack gap="sm">
          <Alert color="green" role="status">
            Your account will not be deleted.
          </Alert>
          <Group justify="flex-end">
            <Button onClick={() => setOpen(false)}>Close</Button>
          </Group>
        </Stack>
      ) : (
        <Stack gap="sm">
          <Text size="sm">
            Your account and your data will be deleted on {dateOf(scheduled.runAfter)}. Do you want
            to keep your account?
          </Text>
          {error ? (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button
              variant="default"
              component={Link}
              to="/settings/privacy"
              onClick={() => setOpen(false)}
            >
              Continue with deletion
            </Button>
            <Button onClick={() => void keep()} loading={busy}>
              Keep my account
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
