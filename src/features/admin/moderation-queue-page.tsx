import {
  Alert,
  Button,
  Container,
  Group,
  SegmentedControl,
  Skeleton,
  Stack,
  Switch,
  Text,
  Title,
} from '@mantine/core';
import { IconArrowLeft, IconRefresh } from '@tabler/icons-react';
import { useState } from 'react';
import { useSessionUser } from '@/data/auth';
import { resolveReport } from '@/data/remote/admin-remote';
import {
  answerAppeal,
  fetchModerationQueue,
  sanctionFromReport,
  type QueueFilters,
  type QueueItem,
  type SanctionInput,
} from '@/data/remote/moderation-remote';
import { useServerRead } from '@/data/repositories/use-server-read';
import { ButtonLink } from '@/components/router-links';
import { toast } from '@/components/toast';
import { AdminDenied } from './admin-denied';
import { AdminGate } from './admin-gate';
import { ConfirmDialog } from './confirm-dialog';
import { ModerationItem, type ItemAction } from './moderation-item';
import { ReasonField, SanctionDialog } from './sanction-dialog';

/**
 * /admin/moderation (docs/trust-and-safety.md § Moderation queue): listener reports and appeals
 * in one list sorted by deadline, overdue ones marked; the ladder and the answers to appeals are
 * taken from here. Every read and action is refused by Postgres to non-admins.
 */
export function ModerationQueuePage() {
  const user = useSessionUser();
  if (user?.app_metadata.role !== 'admin') return <AdminDenied />;
  return (
    <AdminGate>
      <ModerationQueue />
    </AdminGate>
  );
}

const SANCTION_TOAST = {
  warning: 'Warning sent',
  suspension: 'Account suspended',
  ban: 'Account banned',
} as const;

function ModerationQueue() {
  const [filters, setFilters] = useState<QueueFilters>({
    kind: null,
    status: 'open',
    overdue: false,
  });
  const key = `${filters.kind}:${filters.status}:${filters.overdue}`;
  const queue = useServerRead(() => fetchModerationQueue(filters), key);
  const [now, setNow] = useState(() => Date.now());
  const [busy, setBusy] = useState<string | null>(null);
  const [sanctionFor, setSanctionFor] = useState<{
    item: QueueItem;
    kind: SanctionInput['kind'];
  } | null>(null);
  const [takeDown, setTakeDown] = useState<QueueItem | null>(null);
  const [answerFor, setAnswerFor] = useState<{
    item: QueueItem;
    decision: 'uphold' | 'overturn';
  } | null>(null);
  const [answerReason, setAnswerReason] = useState('');
  const [answerTried, setAnswerTried] = useState(false);

  async function run(item: QueueItem, work: () => Promise<void>, done: string) {
    setBusy(item.id);
    try {
      await work();
      toast.success(done);
      setSanctionFor(null);
      setTakeDown(null);
      setAnswerFor(null);
    } catch (error) {
      toast.error(error instanceof Error ? error.message : 'The action failed');
    } finally {
      setBusy(null);
      setNow(Date.now());
      void queue.reload();
    }
  }

  function onAction(item: QueueItem, action: ItemAction) {
    if (action.type === 'dismiss') {
      void run(item, () => resolveReport(item.id, 'dismiss'), 'Report dismissed');
    } else if (action.type === 'take_down') {
      setTakeDown(item);
    } else if (action.type === 'sanction') {
      setSanctionFor({ item, kind: action.kind });
    } else {
      setAnswerReason('');
      setAnswerTried(false);
      setAnswerFor({ item, decision: action.decision });
    }
  }

  const rows = queue.data;
  const overdueCount = rows?.filter((r) => r.overdue).length ?? 0;
  return (
    <Container size="lg" py={{ base: 'md', sm: 'xl' }} px={{ base: 'sm', sm: 'lg' }}>
      <Stack gap="lg">
        <Group justify="space-between" align="flex-end" wrap="wrap">
          <div>
            <Title order={1}>Moderation queue</Title>
            <Text c="dimmed">
              Reports are reviewed within 24 hours; copyright notices by their removal and
              restoration dates; appeals answered within 7 business days.
            </Text>
          </div>
          <Group gap="xs">
            <ButtonLink to="/admin" variant="default" leftSection={<IconArrowLeft size={18} />}>
              Dashboard
            </ButtonLink>
            <Button
              variant="light"
              leftSection={<IconRefresh size={18} />}
              onClick={() => {
                setNow(Date.now());
                void queue.reload();
              }}
            >
              Refresh
            </Button>
          </Group>
        </Group>
        <Group gap="md" wrap="wrap" role="group" aria-label="Filters">
          <SegmentedControl
            aria-label="Type"
            value={filters.kind ?? 'all'}
            onChange={(v) =>
              setFilters((f) => ({ ...f, kind: v === 'all' ? null : (v as QueueFilters['kind']) }))
            }
            data={[
              { value: 'all', label: 'All' },
              { value: 'report', label: 'Reports' },
              { value: 'notice', label: 'Notices' },
              { value: 'appeal', label: 'Appeals' },
            ]}
          />
          <SegmentedControl
            aria-label="Status"
            value={filters.status}
            onChange={(v) => setFilters((f) => ({ ...f, status: v as QueueFilters['status'] }))}
            data={[
              { value: 'open', label: 'Open' },
              { value: 'closed', label: 'Closed' },
              { value: 'all', label: 'All' },
            ]}
          />
          <Switch
            label="Overdue only"
            checked={filters.overdue}
            onChange={(e) => {
              const overdue = e.currentTarget.checked;
              setFilters((f) => ({ ...f, overdue }));
            }}
          />
        </Group>
        {queue.error && !rows ? (
          <Alert color="red" title="Failed to load the moderation queue">
            <Stack gap="xs" align="flex-start">
              <Text size="sm">{queue.error.message}</Text>
              <Button size="xs" variant="default" onClick={() => void queue.reload()}>
                Try again
              </Button>
            </Stack>
          </Alert>
        ) : !rows ? (
          <Skeleton h={160} role="status" aria-label="Loading the moderation queue" />
        ) : rows.length === 0 ? (
          <Text c="dimmed">Nothing to review.</Text>
        ) : (
          <>
            <Text size="sm" aria-live="polite">
              {rows.length} {rows.length === 1 ? 'item' : 'items'}, sorted by deadline
              {overdueCount > 0 ? `; ${overdueCount} overdue` : ''}.
            </Text>
            <Stack
              gap="xs"
              component="ul"
              aria-label="Moderation queue"
              style={{ listStyle: 'none', padding: 0, margin: 0 }}
            >
              {rows.map((item) => (
                <ModerationItem
                  key={`${item.kind}:${item.id}`}
                  item={item}
                  now={now}
                  busy={busy === item.id}
                  onAction={onAction}
                />
              ))}
            </Stack>
          </>
        )}
      </Stack>

      <SanctionDialog
        key={sanctionFor ? `${sanctionFor.item.id}:${sanctionFor.kind}` : 'closed'}
        opened={sanctionFor !== null}
        userName={sanctionFor?.item.subject.name ?? 'the uploader'}
        initialKind={sanctionFor?.kind ?? 'warning'}
        canRemoveTrack={Boolean(sanctionFor?.item.trackId)}
        busy={busy !== null && busy === sanctionFor?.item.id}
        onConfirm={(input) => {
          const target = sanctionFor;
          if (target) {
            void run(
              target.item,
              () => sanctionFromReport(target.item.id, input),
              SANCTION_TOAST[input.kind],
            );
          }
        }}
        onClose={() => setSanctionFor(null)}
      />
      <ConfirmDialog
        opened={takeDown !== null}
        title="Take the track down"
        message={`"${takeDown?.title ?? ''}" disappears for listeners at once. Its uploader sees the standard reason.`}
        confirmLabel="Take down"
        busy={busy !== null && busy === takeDown?.id}
        onConfirm={() =>
          takeDown &&
          void run(takeDown, () => resolveReport(takeDown.id, 'take_down'), 'Track taken down')
        }
        onClose={() => setTakeDown(null)}
      />
      <ConfirmDialog
        opened={answerFor !== null}
        title={answerFor?.decision === 'overturn' ? 'Overturn the decision' : 'Uphold the decision'}
        message={
          answerFor?.decision === 'overturn'
            ? 'The sanction is lifted or the track restored at once. The user is told by e-mail.'
            : 'The decision stays. The user is told by e-mail, with your reason.'
        }
        confirmLabel={answerFor?.decision === 'overturn' ? 'Overturn' : 'Uphold'}
        color={answerFor?.decision === 'overturn' ? 'green' : 'gray'}
        busy={busy !== null && busy === answerFor?.item.id}
        onConfirm={() => {
          setAnswerTried(true);
          const target = answerFor;
          if (target && answerReason.trim()) {
            void run(
              target.item,
              () => answerAppeal(target.item.id, target.decision, answerReason.trim()),
              target.decision === 'overturn' ? 'Appeal overturned' : 'Appeal upheld',
            );
          }
        }}
        onClose={() => setAnswerFor(null)}
      >
        <ReasonField value={answerReason} onChange={setAnswerReason} tried={answerTried} />
      </ConfirmDialog>
    </Container>
  );
}
