import { Badge, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { SectionCard } from '@/components/section-card';
import type { PlayRefusal, RefusedPlays } from '@/data';

/** What each refusal reason means, for an admin (docs/plays.md). */
export const REFUSAL_LABELS: Record<PlayRefusal, string> = {
  no_audio_served: 'No audio served',
  not_enough_audio: 'Too little audio',
  too_fast: 'Faster than playback',
  own_track: 'Own track',
  new_account: 'New account',
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
            <Stack gap={4}>
              <Title order={3} size="h5" id="refused-listeners-title">
                Top refused listeners
              </Title>
              <Table.ScrollContainer minWidth={480}>
                <Table verticalSpacing="xs" fz="sm" aria-labelledby="refused-listeners-title">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Listener</Table.Th>
                      <Table.Th ta="right">Refused</Table.Th>
                      <Table.Th ta="right">Counted</Table.Th>
                      <Table.Th>Main reason</Table.Th>
                      <Table.Th>Last refused</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {d.listeners.map((l) => (
                      <Table.Tr key={l.id} data-testid="refused-listener">
                        <Table.Td>
                          <Text size="sm" fw={500}>
                            {l.name}
                          </Text>
                          {l.email && (
                            <Text size="xs" c="dimmed">
                              {l.email}
                            </Text>
                          )}
                        </Table.Td>
                        <Table.Td ta="right">{l.refused.toLocaleString('en-GB')}</Table.Td>
                        <Table.Td ta="right">{l.counted.toLocaleString('en-GB')}</Table.Td>
                        <Table.Td>
                          <Reason reason={l.topReason} />
                        </Table.Td>
                        <Table.Td>{when(l.lastRefusedAt)}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            </Stack>
            <Stack gap={4}>
              <Title order={3} size="h5" id="refused-tracks-title">
                Top refused tracks
              </Title>
              <Table.ScrollContainer minWidth={480}>
                <Table verticalSpacing="xs" fz="sm" aria-labelledby="refused-tracks-title">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Track</Table.Th>
                      <Table.Th ta="right">Refused</Table.Th>
                      <Table.Th ta="right">Listeners</Table.Th>
                      <Table.Th ta="right">Counted</Table.Th>
                      <Table.Th>Main reason</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {d.tracks.map((t) => (
                      <Table.Tr key={t.id} data-testid="refused-track">
                        <Table.Td>
                          <Text size="sm" fw={500}>
                            {t.title}
                          </Text>
                          <Text size="xs" c="dimmed">
                            {t.artist}
                          </Text>
                        </Table.Td>
                        <Table.Td ta="right">{t.refused.toLocaleString('en-GB')}</Table.Td>
                        <Table.Td ta="right">{t.listeners.toLocaleString('en-GB')}</Table.Td>
                        <Table.Td ta="right">{t.counted.toLocaleString('en-GB')}</Table.Td>
                        <Table.Td>
                          <Reason reason={t.topReason} />
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            </Stack>
          </SimpleGrid>
        </Stack>
      )}
    </SectionCard>
  );
}
