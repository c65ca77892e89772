import { Paper, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import type { TrackEarnings as TrackEarningsRow } from '@/data';
import { formatEur } from '@/lib/euros';

/** Per-track earnings from the ledger: counted plays and EUR, highest first. */
export function TrackEarnings({ rows }: { rows: TrackEarningsRow[] | undefined }) {
  return (
    <Paper
      withBorder
      radius="md"
      p={{ base: 'sm', sm: 'md' }}
      bg="dark.7"
      component="section"
      aria-labelledby="per-track-title"
    >
      <Stack gap="sm">
        <Title order={2} size="h4" id="per-track-title">
          Earnings per track
        </Title>
        {!rows ? (
          <Skeleton h={80} aria-label="Loading earnings per track" />
        ) : rows.length === 0 ? (
          <Text c="dimmed" size="sm">
            No counted plays yet. Each play of 30 seconds or more by a listener earns you money.
          </Text>
        ) : (
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
        )}
      </Stack>
    </Paper>
  );
}
