import { Badge, Table } from '@mantine/core';
import { SectionCard } from '@/components/section-card';
import type { WithdrawalRecord } from '@/data/remote/payouts-remote';
import { formatEur } from '@/lib/euros';

/** Spec 4: completed green, rejected red, anything else pending amber. */
export function withdrawalStatus(status: string): { label: string; color: string } {
  if (status === 'completed') return { label: 'Completed', color: 'green' };
  if (status === 'rejected') return { label: 'Rejected', color: 'red' };
  return { label: 'Pending', color: 'yellow' };
}

const date = (iso: string | null) =>
  iso
    ? new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric' })
    : '—';

/** The payout history, newest first, with status and the processed date. */
export function PayoutHistory({ rows }: { rows: WithdrawalRecord[] | undefined }) {
  return (
    <SectionCard
      title="Payout history"
      id="history-title"
      data={rows}
      skeletonHeight={80}
      empty={(rows) => (rows.length === 0 ? 'No withdrawals yet.' : null)}
    >
      {(rows) => (
        <>
          <Table.ScrollContainer minWidth={420}>
            <Table verticalSpacing="xs" aria-label="Payout history">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Requested</Table.Th>
                  <Table.Th>Amount</Table.Th>
                  <Table.Th>Method</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Processed</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((w) => {
                  const s = withdrawalStatus(w.status);
                  return (
                    <Table.Tr key={w.id} data-testid="payout-row">
                      <Table.Td>{date(w.createdAt)}</Table.Td>
                      <Table.Td>{formatEur(w.amount)}</Table.Td>
                      <Table.Td>{w.method === 'paypal' ? 'PayPal' : 'Bank transfer'}</Table.Td>
                      <Table.Td>
                        <Badge color={s.color} variant="light" data-status={s.label.toLowerCase()}>
                          {s.label}
                        </Badge>
                      </Table.Td>
                      <Table.Td>{date(w.processedAt)}</Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </>
      )}
    </SectionCard>
  );
}
