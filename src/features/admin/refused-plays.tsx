import { Badge, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { SectionCard } from '@/components/section-card';
import type { PlayRefusal, RefusedPlays } from '@/data/remote/admin-remote';
import { keyboardScrollable } from '@/lib/scroll-region';

/** What each refusal reason means, for an admin (docs/plays.md). */
export const REFUSAL_LABELS: Record<PlayRefusal, string> = {
  no_audio_served: 'No audio served',
  not_enough_audio: 'Too little audio',
  too_fast: 'Faster than playback',
  own_track: 'Own track',
  /** Since issue 34 a new account's listens are held; refused only when it is banned first. */
  new_account: 'New account, banned',
  daily_track_limit: 'Daily limit (track)',
  daily_listener_limit: 'Daily limit (listener)',
  not_downloaded: 'Offline, not downloaded',
  outside_download_window: 'Offline, outside download window',
  too_frequent: 'Offline, too frequent',
};

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString('en-GB') : '—');

function Reason({ reason }: { reason: PlayRefusal | null }) {
  if (!reason) return <>—</>;
  return (
    <Badge
      variant="light"
      color="red"
      size="sm"
      // The reason is the point of the view: it wraps in a narrow column instead of an ellipsis.
      styles={{
        root: { textTransform: 'none', height: 'auto', paddingBlock: 2 },
        label: { whiteSpace: 'normal', overflow: 'visible', lineHeight: 1.3 },
      }}
    >
      {REFUSAL_LABELS[reason] ?? reason}
    </Badge>
  );
}

/**
 * The fraud view: listens the server refused to count in the last 30 days (docs/plays.md), the
 * listeners and tracks with the most of them, their most frequent reason and counted listens.
 */
export function RefusedPlaysView({ data }: { data: RefusedPlays | undefined }) {
  return (
    <SectionCard
      title="Refused plays"
      id="refused-plays-title"
      data={data}
      skeletonHeight={120}
      empty={(d) =>
        d.listeners.length === 0 && d.tracks.length === 0
          ? 'No refused plays in the last 30 days.'
          : null
      }
    >
      {(d) => (
        <Stack gap="xs">
          <Text c="dimmed" size="sm">
            Listens in the last 30 days that earned nothing, and why (uploaders&apos; own listens
            left out).
          </Text>
          <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
            <RefusedTable
              title="Top refused listeners"
              id="refused-listeners-title"
              columns={['Listener', 'Refused', 'Counted', 'Main reason', 'Last refused']}
              counts={2}
              rows={d.listeners.map((l) => ({
                key: l.id,
                testId: 'refused-listener',
                name: l.name,
                detail: l.email,
                figures: [l.refused, l.counted],
                reason: l.topReason,
                last: when(l.lastRefusedAt),
              }))}
            />
            <RefusedTable
              title="Top refused tracks"
              id="refused-tracks-title"
              columns={['Track', 'Refused', 'Listeners', 'Counted', 'Main reason']}
              counts={3}
              rows={d.tracks.map((t) => ({
                key: t.id,
                testId: 'refused-track',
                name: t.title,
                detail: t.artist,
                figures: [t.refused, t.listeners, t.counted],
                reason: t.topReason,
              }))}
            />
          </SimpleGrid>
        </Stack>
      )}
    </SectionCard>
  );
}

interface RefusedRow {
  key: string;
  testId: string;
  name: string;
  detail: string | null;
  /** The counts, in the order of the numeric columns after the name. */
  figures: number[];
  reason: PlayRefusal | null;
  /** A last column after the reason, when the table has one. */
  last?: string;
}

/** One of the view's two tables: a name with a detail line, counts, the reason, maybe a time. */
function RefusedTable({
  title,
  id,
  columns,
  counts,
  rows,
}: {
  title: string;
  id: string;
  columns: string[];
  /** How many columns after the name hold counts (right-aligned). */
  counts: number;
  rows: RefusedRow[];
}) {
  const numeric = (i: number) => i > 0 && i <= counts;
  return (
    <Stack gap={4}>
      <Title order={3} size="h5" id={id}>
        {title}
      </Title>
      <Table.ScrollContainer
        minWidth={480}
        scrollAreaProps={keyboardScrollable('Refused plays table')}
      >
        <Table verticalSpacing="xs" fz="sm" aria-labelledby={id}>
          <Table.Thead>
            <Table.Tr>
              {columns.map((c, i) => (
                <Table.Th key={c} ta={numeric(i) ? 'right' : undefined}>
                  {c}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((r) => (
              <Table.Tr key={r.key} data-testid={r.testId}>
                <Table.Td>
                  <Text size="sm" fw={500}>
                    {r.name}
                  </Text>
                  {r.detail && (
                    <Text size="xs" c="dimmed">
                      {r.detail}
                    </Text>
                  )}
                </Table.Td>
                {r.figures.map((f, i) => (
                  <Table.Td key={columns[i + 1]} ta="right">
                    {f.toLocaleString('en-GB')}
                  </Table.Td>
                ))}
                <Table.Td>
                  <Reason reason={r.reason} />
                </Table.Td>
                {r.last !== undefined && <Table.Td>{r.last}</Table.Td>}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}
