import { Button, Stack, Table, Text } from '@mantine/core';
import { SectionCard } from '@/components/section-card';
import { useState } from 'react';
import { processWithdrawal, type PendingWithdrawal } from '@/data/remote/admin-remote';
import { toast } from '@/components/toast';
import { formatEur } from '@/lib/euros';
import { ConfirmDialog } from './confirm-dialog';
import { RowActions } from './row-actions';
import { keyboardScrollable } from '@/lib/scroll-region';

/** PayPal e-mail, or the bank details of the JSON string, as one readable line. */
export function describeDetails(w: Pick<PendingWithdrawal, 'method' | 'details'>): string {
  if (w.method === 'paypal') return w.details;
  try {
    const d = JSON.parse(w.details) as { accountName?: string; iban?: string; swift?: string };
    return `${d.accountName ?? ''} · ${d.iban ?? ''} · ${d.swift ?? ''}`;
  } catch {
    return w.details;
  }
}

interface Pending {
  withdrawal: PendingWithdrawal;
  status: 'completed' | 'rejected';
}

/** Pending withdrawal requests; Complete or Reject after a confirmation. */
export function WithdrawalsQueue({
  rows,
  onChanged,
}: {
  rows: PendingWithdrawal[] | undefined;
  onChanged(): void;
}) {
  const [pending, setPending] = useState<Pending | null>(null);
  const [busy, setBusy] = useState(false);

  async function confirm() {
    if (!pending) return;
    setBusy(true);
    try {
      await processWithdrawal(pending.withdrawal.id, pending.status);
      toast.success(
        pending.status === 'completed'
          ? 'Withdrawal completed'
          : 'Withdrawal rejected; the amount is back in the balance',
      );
    } catch (err) {
      toast.error(err instanceof Error ? err.message : 'Failed to process withdrawal');
    } finally {
      setBusy(false);
      setPending(null);
      onChanged();
    }
  }

  return (
    <>
      <SectionCard
        title="Withdrawal requests"
        id="withdrawals-title"
        data={rows}
        skeletonHeight={80}
        empty={(rows) => (rows.length === 0 ? 'No pending withdrawals.' : null)}
      >
        {(rows) => (
          <>
            {/* On a phone: the artist with the request under the name, and the actions one
                above the other; every column from sm up. */}
            <Table.ScrollContainer
              minWidth={300}
              scrollAreaProps={keyboardScrollable('Withdrawals table')}
            >
              <Table verticalSpacing="xs" aria-label="Withdrawal requests">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Artist</Table.Th>
                    <Table.Th visibleFrom="sm">Amount</Table.Th>
                    <Table.Th visibleFrom="sm">Method</Table.Th>
                    <Table.Th visibleFrom="sm">Details</Table.Th>
                    <Table.Th visibleFrom="sm">Requested</Table.Th>
                    <Table.Th>Actions</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map((w) => {
                    const method = w.method === 'paypal' ? 'PayPal' : 'Bank transfer';
                    const requested = new Date(w.createdAt).toLocaleDateString('en-GB');
                    return (
                      <Table.Tr key={w.id} data-testid="withdrawal-request">
                        <Table.Td>
                          <Text fw={600} size="sm">
                            {w.artistName}
                          </Text>
                          <Stack gap={2} hiddenFrom="sm">
                            <Text size="sm">
                              {formatEur(w.amount)} · {method}
                            </Text>
                            <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
                              {describeDetails(w)}
                            </Text>
                            <Text size="xs" c="dimmed">
                              Requested {requested}
                            </Text>
                          </Stack>
                        </Table.Td>
                        <Table.Td visibleFrom="sm">{formatEur(w.amount)}</Table.Td>
                        <Table.Td visibleFrom="sm">{method}</Table.Td>
                        <Table.Td visibleFrom="sm" style={{ wordBreak: 'break-all' }}>
                          {describeDetails(w)}
                        </Table.Td>
                        <Table.Td visibleFrom="sm">{requested}</Table.Td>
                        <Table.Td>
                          <RowActions>
                            <Button
                              size="compact-sm"
                              color="green"
                              variant="light"
                              onClick={() => setPending({ withdrawal: w, status: 'completed' })}
                            >
                              Complete
                            </Button>
                            <Button
                              size="compact-sm"
                              color="red"
                              variant="subtle"
                              onClick={() => setPending({ withdrawal: w, status: 'rejected' })}
                            >
                              Reject
                            </Button>
                          </RowActions>
                        </Table.Td>
                      </Table.Tr>
                    );
                  })}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </>
        )}
      </SectionCard>
      <ConfirmDialog
        opened={pending !== null}
        title={pending?.status === 'completed' ? 'Complete withdrawal' : 'Reject withdrawal'}
        message={
          pending
            ? pending.status === 'completed'
              ? `Mark ${formatEur(pending.withdrawal.amount)} to ${pending.withdrawal.artistName} as paid?`
              : `Reject ${formatEur(pending.withdrawal.amount)} for ${pending.withdrawal.artistName}? The amount returns to their balance.`
            : ''
        }
        confirmLabel={pending?.status === 'completed' ? 'Complete' : 'Reject'}
        color={pending?.status === 'completed' ? 'green' : 'red'}
        busy={busy}
        onConfirm={() => void confirm()}
        onClose={() => setPending(null)}
      />
    </>
  );
}
