/**
 * Settings › Privacy (issue 32, docs/privacy-rights.md): download your data (one export a day,
 * built by a background job; its progress is polled here, the link arrives by email) and delete
 * your account (explained first, confirmed with the password, run after a 14-day grace period
 * that can be cancelled here or at the next sign-in).
 */
import {
  Alert,
  Button,
  Group,
  List,
  Loader,
  Paper,
  PasswordInput,
  Progress,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconAlertCircle, IconDownload, IconTrash } from '@tabler/icons-react';
import { useEffect, useState, type FormEvent } from 'react';
import { useSessionUserId } from '@/data/auth';
import {
  cancelAccountDeletion,
  fetchLatestExport,
  fetchScheduledDeletion,
  requestDataExport,
  scheduleAccountDeletion,
  type DataExport,
} from '@/data/remote/account-remote';
import { fetchBalance } from '@/data/remote/payouts-remote';
import { useServerRead } from '@/data/repositories/use-server-read';
import { PAYOUT } from '@/lib/constants';
import { centsOf, formatEur } from '@/lib/euros';

/** How often a running export's progress is read. */
const POLL_MS = 2000;
export const GRACE_DAYS = 14;
export const EXPORT_LINK_DAYS = 7;
const MINIMUM_CENTS = centsOf(PAYOUT.minimumWithdrawalEur);

const dateOf = (iso: string) =>
  new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric' });

const todayUtc = () => new Date().toISOString().slice(0, 10);

export function PrivacySection() {
  return (
    <Stack gap="lg">
      <ExportPanel />
      <DeletePanel />
    </Stack>
  );
}

function stageText(e: DataExport): string {
  if (e.state === 'queued') return 'Your export is waiting to start.';
  if (e.stage === 'storing') return 'Saving your archive…';
  if (e.stage === 'audio') return 'Adding your uploads’ audio files…';
  return 'Collecting your data…';
}

function ExportPanel() {
  const userId = useSessionUserId();
  const latest = useServerRead(fetchLatestExport, userId);
  const { reload } = latest;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const current = latest.data ?? null;
  const working = current?.state === 'queued' || current?.state === 'running';

  useEffect(() => {
    if (!working) return;
    const timer = window.setInterval(() => void reload(), POLL_MS);
    return () => window.clearInterval(timer);
  }, [working, reload]);

  const requestedToday = current !== null && current.requestedOn === todayUtc();
  const request = async () => {
    setBusy(true);
    setError(null);
    try {
      await requestDataExport();
      await reload();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="export-title">
      <Stack gap="sm">
        <Title order={3} id="export-title" size="h4">
          Download your data
        </Title>
        <Text size="sm">
          Get one archive with your profile, likes, playlists, follows, listening history, your
          uploads with their details and lyrics, your earnings statement and withdrawals, and the
          original audio files you uploaded. We email you a download link that works for{' '}
          {EXPORT_LINK_DAYS} days. You can ask for one export a day.
        </Text>
        {latest.loading ? (
          <Group gap="xs">
            <Loader size="xs" aria-hidden />
            <Text size="sm">Loading your exports…</Text>
          </Group>
        ) : latest.error ? (
          <Alert color="red" icon={<IconAlertCircle aria-hidden />} role="alert">
            {latest.error.message}{' '}
            <Button variant="subtle" size="compact-sm" onClick={() => void reload()}>
              Try again
            </Button>
          </Alert>
        ) : null}
        {current && working ? (
          <Stack gap={4} role="status" aria-live="polite">
            <Text size="sm">
              {stageText(current)} {current.progress}%
            </Text>
            <Progress value={current.progress} aria-label="Export progress" animated striped />
          </Stack>
        ) : null}
        {current?.state === 'ready' && current.expiresAt ? (
          <Alert color="green" role="status">
            Your export is ready. We emailed you a link to download it; it works until{' '}
            {dateOf(current.expiresAt)}.
          </Alert>
        ) : null}
        {current?.state === 'failed' ? (
          <Alert color="red" role="alert" icon={<IconAlertCircle aria-hidden />}>
            We could not build your export. Please try again tomorrow, or write to us.
          </Alert>
        ) : null}
        {error ? (
          <Alert color="red" role="alert" icon={<IconAlertCircle aria-hidden />}>
            {error}
          </Alert>
        ) : null}
        <Group>
          <Button
            leftSection={<IconDownload size={16} aria-hidden />}
            onClick={() => void request()}
            loading={busy}
            disabled={latest.loading || working || requestedToday}
          >
            Request my data
          </Button>
          {requestedToday && !working ? (
            <Text size="sm" c="dimmed">
              You can ask for your next export tomorrow.
            </Text>
          ) : null}
        </Group>
      </Stack>
    </Paper>
  );
}

function DeletePanel() {
  const userId = useSessionUserId();
  const deletion = useServerRead(fetchScheduledDeletion, userId);
  const balance = useServerRead(() => fetchBalance(userId ?? ''), userId);
  const { reload } = deletion;
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const scheduled = deletion.data ?? null;
  const balanceCents = centsOf(balance.data ?? 0);
  const mustWithdraw = balanceCents >= MINIMUM_CENTS;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await scheduleAccountDeletion(password);
      setPassword('');
      await reload();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const cancel = async () => {
    setBusy(true);
    setError(null);
    try {
      await cancelAccountDeletion();
      await reload();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="delete-title">
      <Stack gap="sm">
        <Title order={3} id="delete-title" size="h4">
          Delete your account
        </Title>
        {deletion.loading || balance.loading ? (
          <Group gap="xs">
            <Loader size="xs" aria-hidden />
            <Text size="sm">Loading your account…</Text>
          </Group>
        ) : deletion.error ? (
          <Alert color="red" role="alert" icon={<IconAlertCircle aria-hidden />}>
            {deletion.error.message}{' '}
            <Button variant="subtle" size="compact-sm" onClick={() => void reload()}>
              Try again
            </Button>
          </Alert>
        ) : scheduled ? (
          <Stack gap="sm">
            <Alert color="orange" role="status">
              Your account will be deleted on {dateOf(scheduled.runAfter)}. Until then you can sign
              in and keep it.
            </Alert>
            {!scheduled.running ? (
              <Group>
                <Button onClick={() => void cancel()} loading={busy}>
                  Keep my account
                </Button>
              </Group>
            ) : null}
          </Stack>
        ) : (
          <form onSubmit={(e) => void submit(e)} noValidate>
            <Stack gap="sm">
              <Text size="sm">When you delete your account:</Text>
              <List size="sm" spacing={4}>
                <List.Item>
                  Nothing happens for {GRACE_DAYS} days. Sign in during that time to cancel.
                </List.Item>
                <List.Item>
                  Then you can no longer sign in. Your profile, likes, follows, playlists, listening
                  history and lyrics are deleted.
                </List.Item>
                <List.Item>
                  Your uploads are deleted with all their files and removed from every playlist.
                </List.Item>
                <List.Item>Your paid plan, if you have one, is cancelled.</List.Item>
                <List.Item>
                  Your earnings and withdrawal records are kept without your name or payout details
                  for 10 years, as accounting law requires.
                </List.Item>
                <List.Item>
                  A balance under {formatEur(PAYOUT.minimumWithdrawalEur)} cannot be paid out and is
                  forfeited.
                </List.Item>
              </List>
              <Text size="sm">Download your data first if you want to keep a copy.</Text>
              {mustWithdraw ? (
                <Alert color="yellow" role="alert" icon={<IconAlertCircle aria-hidden />}>
                  Your balance is {formatEur(balance.data ?? 0)}. Withdraw it on the Payouts page
                  before you delete your account.
                </Alert>
              ) : null}
              <PasswordInput
                label="Your password"
                description="Enter your password to confirm it is you."
                autoComplete="current-password"
                value={password}
                onChange={(e) => setPassword(e.currentTarget.value)}
                disabled={mustWithdraw}
                error={error ?? undefined}
                maw={360}
              />
              <Group>
                <Button
                  type="submit"
                  color="red"
                  leftSection={<IconTrash size={16} aria-hidden />}
                  loading={busy}
                  disabled={mustWithdraw}
                >
                  Delete my account
                </Button>
              </Group>
            </Stack>
          </form>
        )}
        {scheduled && error ? (
          <Alert color="red" role="alert" icon={<IconAlertCircle aria-hidden />}>
            {error}
          </Alert>
        ) : null}
      </Stack>
    </Paper>
  );
}
