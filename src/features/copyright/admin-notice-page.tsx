/**
 * An admin's view of one copyright notice (/admin/copyright/$noticeId; the moderation queue
 * links here): everything including the claimant's contact and the counter-notice, and the
 * decisions the notice's status allows. Each decision asks for the reason (the audit log's why);
 * the database refuses anyone but an admin.
 */
import { Alert, Button, Group, Loader, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { useState } from 'react';
import { decideNotice, type Decision } from './copyright-remote';
import { NoticeSummary } from './notice-summary';
import { useNotice } from './use-notice';

const ACTIONS: { decision: Decision; label: string; allowed: string[]; color?: string }[] = [
  {
    decision: 'copyright_remove',
    label: 'Remove',
    allowed: ['received', 'acknowledged'],
    color: 'red',
  },
  { decision: 'copyright_reject', label: 'Reject', allowed: ['received', 'acknowledged'] },
  { decision: 'copyright_restore', label: 'Restore', allowed: ['removed', 'counter_noticed'] },
  {
    decision: 'copyright_record_legal_action',
    label: 'Record legal action',
    allowed: ['counter_noticed'],
  },
];

export function AdminNoticePage({ noticeId }: { noticeId: string }) {
  const { state, reload } = useNotice(noticeId);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState<Decision | null>(null);
  const [error, setError] = useState<string | null>(null);

  const decide = async (decision: Decision) => {
    setBusy(decision);
    setError(null);
    try {
      await decideNotice(decision, noticeId, reason);
      setReason('');
      reload();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(null);
    }
  };

  return (
    <Stack gap="md" maw={860}>
      <Title order={1}>Copyright notice</Title>
      {state.kind === 'loading' ? <Loader aria-label="Loading the notice" /> : null}
      {state.kind === 'error' ? (
        <Alert color="red" role="alert">
          {state.message}
        </Alert>
      ) : null}
      {state.kind === 'missing' ? (
        <Text>No such notice, or administrator access is required.</Text>
      ) : null}
      {state.kind === 'loaded' ? (
        <>
          <NoticeSummary detail={state.detail} />
          {state.detail.contact ? (
            <Paper withBorder p="md">
              <Title order={2} fz="md">
                Claimant contact (private)
              </Title>
              <Text>{state.detail.contact.email}</Text>
              {state.detail.contact.address ? <Text>{state.detail.contact.address}</Text> : null}
              {state.detail.contact.phone ? <Text>{state.detail.contact.phone}</Text> : null}
            </Paper>
          ) : null}
          {state.detail.counter ? (
            <Paper withBorder p="md">
              <Title order={2} fz="md">
                Counter-notice
              </Title>
              <Text>
                {state.detail.counter.full_name}, {state.detail.counter.address},{' '}
                {state.detail.counter.email}
              </Text>
              <Text style={{ whiteSpace: 'pre-wrap' }}>{state.detail.counter.explanation}</Text>
            </Paper>
          ) : null}
          {ACTIONS.some((a) => a.allowed.includes(state.detail.notice.status)) ? (
            <Paper withBorder p="md">
              <Stack gap="sm">
                <Textarea
                  label="Reason"
                  description="Recorded in the audit log and sent to the people concerned."
                  value={reason}
                  onChange={(e) => setReason(e.currentTarget.value)}
                  autosize
                  minRows={2}
                />
                {error ? (
                  <Alert color="red" role="alert">
                    {error}
                  </Alert>
                ) : null}
                <Group>
                  {ACTIONS.filter((a) => a.allowed.includes(state.detail.notice.status)).map(
                    (a) => (
                      <Button
                        key={a.decision}
                        color={a.color}
                        variant={a.color ? 'filled' : 'default'}
                        loading={busy === a.decision}
                        disabled={busy !== null}
                        onClick={() => void decide(a.decision)}
                      >
                        {a.label}
                      </Button>
                    ),
                  )}
                </Group>
              </Stack>
            </Paper>
          ) : null}
        </>
      ) : null}
    </Stack>
  );
}
