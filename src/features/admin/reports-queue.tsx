import { Badge, Button, Group, Paper, Stack, Text, Textarea } from '@mantine/core';
import { SectionCard } from '@/components/section-card';
import { useState } from 'react';
import { resolveReport, type OpenReport } from '@/data/remote/admin-remote';
import { toast } from '@/components/toast';
import { ConfirmDialog } from './confirm-dialog';

export const REASON_LABELS = {
  copyright: 'Copyright',
  offensive: 'Offensive',
  spam: 'Spam',
  other: 'Other',
} as const;

/** Open reports of listeners; an admin dismisses one or takes the track down (with a reason). */
export function ReportsQueue({
  rows,
  onChanged,
}: {
  rows: OpenReport[] | undefined;
  onChanged(): void;
}) {
  const [target, setTarget] = useState<OpenReport | null>(null);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState<string | null>(null);

  async function act(report: OpenReport, action: 'dismiss' | 'take_down', why?: string) {
    setBusy(report.id);
    try {
      await resolveReport(report.id, action, why);
      toast.success(action === 'dismiss' ? 'Report dismissed' : 'Track taken down');
      setTarget(null);
    } catch (err) {
      toast.error(err instanceof Error ? err.message : 'Failed to resolve the report');
    } finally {
      setBusy(null);
      onChanged();
    }
  }

  return (
    <>
      <SectionCard
        title="Reports"
        id="reports-title"
        data={rows}
        skeletonHeight={80}
        empty={(rows) => (rows.length === 0 ? 'No open reports.' : null)}
      >
        {(rows) => (
          <>
            <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
              {rows.map((r) => (
                <Paper
                  key={r.id}
                  component="li"
                  withBorder
                  radius="md"
                  p="sm"
                  bg="dark.6"
                  data-testid="report"
                >
                  <Stack gap={6}>
                    <Group justify="space-between" wrap="wrap" gap="xs">
                      <Text fw={600}>
                        {r.track ? `${r.track.title} — ${r.track.artist}` : 'Deleted track'}
                      </Text>
                      <Badge color="red" variant="light">
                        {REASON_LABELS[r.reason]}
                      </Badge>
                    </Group>
                    {r.note && <Text size="sm">“{r.note}”</Text>}
                    <Text size="xs" c="dimmed">
                      Reported by {r.reporterName || 'a listener'} on{' '}
                      {new Date(r.createdAt).toLocaleDateString('en-GB')}
                    </Text>
                    <Group gap={6}>
                      <Button
                        size="compact-sm"
                        variant="default"
                        loading={busy === r.id && !target}
                        onClick={() => void act(r, 'dismiss')}
                      >
                        Dismiss
                      </Button>
                      <Button
                        size="compact-sm"
                        color="red"
                        variant="light"
                        disabled={!r.track}
                        onClick={() => {
                          setReason('');
                          setTarget(r);
                        }}
                      >
                        Take down
                      </Button>
                    </Group>
                  </Stack>
                </Paper>
              ))}
            </Stack>
          </>
        )}
      </SectionCard>
      <ConfirmDialog
        opened={target !== null}
        title="Take the track down"
        message={`"${target?.track?.title ?? ''}" disappears for listeners at once. Its uploader sees the reason.`}
        confirmLabel="Take down"
        busy={busy !== null && busy === target?.id}
        onConfirm={() => target && void act(target, 'take_down', reason.trim() || undefined)}
        onClose={() => setTarget(null)}
      >
        <Textarea
          label="Reason shown to the uploader"
          placeholder="Leave empty for the standard sentence of the report's reason"
          value={reason}
          onChange={(e) => setReason(e.currentTarget.value)}
          maxLength={1000}
          autosize
          minRows={2}
        />
      </ConfirmDialog>
    </>
  );
}
