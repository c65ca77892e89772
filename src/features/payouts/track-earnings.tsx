import { Table } from '@mantine/core';
import { SectionCard } from '@/components/section-card';
import type { TrackEarnings as TrackEarningsRow } from '@/data/remote/payouts-remote';
import { formatEur } from '@/lib/euros';

/** Per-track earnings from the ledger: counted plays and EUR, highest first. */
export function TrackEarnings({ rows }: { rows: TrackEarningsRow[] | undefined }) {
  return (
    <SectionCard
      title="Earnings per track"
      id="per-track-title"
      data={rows}
      skeletonHeight={80}
      empty={(rows) =>
        rows.length === 0
          ? 'No counted plays yet. Each play of 30 seconds or more by a listener earns you money.'
          : null
      }
    >
      {(rows) => (
        <>
          <Table verticalSpacing="xs" aria-label="Earnings per track">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Track</Table.Th>
                <Table.Th ta="right">Plays</Table.Th>
                <Table.Th ta="right">Earned</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((t) => (
                <Table.Tr key={t.trackId ?? 'deleted'}>
                  <Table.Td style={{ wordBreak: 'break-word' }}>{t.title}</Table.Td>
                  <Table.Td ta="right">{t.plays.toLocaleString('en-GB')}</Table.Td>
                  <Table.Td ta="right">{formatEur(t.amount)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </>
      )}
    </SectionCard>
  );
}
