import {
  Alert,
  Button,
  Container,
  Grid,
  Group,
  NativeSelect,
  Paper,
  Progress,
  ScrollArea,
  SegmentedControl,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import {
  IconCash,
  IconDownload,
  IconHeadphones,
  IconHeart,
  IconPlaylistAdd,
  IconUserPlus,
  IconUsers,
} from '@tabler/icons-react';
import { Suspense, useState, type ReactNode } from 'react';
import { useSessionUserId } from '@/data/auth';
import { fetchInsights, type Insights, type InsightsPeriod } from '@/data/remote/insights-remote';
import { useServerRead } from '@/data/repositories/use-server-read';
import { StatGrid } from '@/components/stat-grid';
import { formatEur } from '@/lib/euros';
import { lazyChunk } from '@/lib/lazy-chunk';
import {
  PERIODS,
  SOURCE_LABEL,
  clock,
  curveTick,
  insightsCsv,
  listenersLabel,
  spanLabel,
  tablePoints,
} from './insights-text';

const SeriesChart = lazyChunk(() => import('./series-chart'));
const CurveChart = lazyChunk(() => import('./curve-chart'));

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Paper
      withBorder
      radius="md"
      p={{ base: 'sm', sm: 'md' }}
      bg="dark.7"
      component="section"
      aria-labelledby={id}
    >
      <Stack gap="sm">
        <Title order={2} size="h4" id={id}>
          {title}
        </Title>
        {children}
      </Stack>
    </Paper>
  );
}

/**
 * A chart with its figures as a table beside it (below it on a phone). The table scrolls: its
 * viewport is a named tab stop so a keyboard can scroll it too (WCAG 2.1.1, axe
 * 'scrollable-region-focusable').
 */
function ChartAndTable({
  chart,
  table,
  label,
}: {
  chart: ReactNode;
  table: ReactNode;
  label: string;
}) {
  return (
    <Grid gap="md">
      <Grid.Col span={{ base: 12, md: 7 }}>{chart}</Grid.Col>
      <Grid.Col span={{ base: 12, md: 5 }}>
        <ScrollArea.Autosize
          mah={260}
          type="auto"
          viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': label }}
        >
          {table}
        </ScrollArea.Autosize>
      </Grid.Col>
    </Grid>
  );
}

function download(data: Insights, scope: string) {
  const csv = insightsCsv(data, scope);
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = `soundloft-insights-${data.period}-${data.to}.csv`;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * /insights (Studio, issue 35; docs/insights.md): the artist's catalogue or one track over 7,
 * 30, 90 days or 12 months: counted plays, unique listeners, new followers, likes, playlist
 * adds, earnings; the listen-through curve with seeks apart, the skip rate and average listen
 * time; where listens came from; the playlists the track is in. Aggregates only, from the server.
 */
export function InsightsPage() {
  const userId = useSessionUserId();
  const [period, setPeriod] = useState<InsightsPeriod>('30d');
  const [track, setTrack] = useState<string>('');
  // The track list comes with the catalogue's answer and stays for the picker.
  const [tracks, setTracks] = useState<Insights['tracks']>(null);
  const read = useServerRead(
    async () => {
      const data = await fetchInsights(period, track || null);
      if (data.tracks) setTracks(data.tracks);
      return data;
    },
    userId ? `${userId}:${period}:${track}` : null,
  );
  const data = read.data;
  const trackTitle = tracks?.find((t) => t.id === track)?.title;
  const scope = track ? (trackTitle ?? 'One track') : 'All tracks';
  const periodLabel = PERIODS.find((p) => p.value === period)?.label ?? period;
  const tick = curveTick(data?.unit ?? 'percent');
  const t = data?.totals;

  return (
    <Container size="lg" py={{ base: 'md', sm: 'xl' }} px={{ base: 'sm', sm: 'lg' }}>
      <Stack gap="lg">
        <div>
          <Title order={1}>Insights</Title>
          <Text c="dimmed">
            What listeners did with your tracks, from what the server saw. Aggregates only: never
            who listened, and figures of fewer than 5 listeners are merged.
          </Text>
        </div>
        <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
          <Group align="flex-end" wrap="wrap" gap="sm">
            <NativeSelect
              label="Track"
              value={track}
              onChange={(e) => setTrack(e.currentTarget.value)}
              data={[
                { value: '', label: 'All tracks' },
                ...(tracks ?? []).map((x) => ({ value: x.id, label: x.title })),
              ]}
              miw={200}
            />
            <SegmentedControl
              value={period}
              onChange={(v) => setPeriod(v as InsightsPeriod)}
              data={PERIODS}
              aria-label="Period"
            />
          </Group>
          <Button
            variant="light"
            leftSection={<IconDownload size={16} aria-hidden />}
            disabled={!data}
            onClick={() => data && download(data, scope)}
          >
            Download CSV
          </Button>
        </Group>
        {read.error && (
          <Alert color="red" title="Could not load your insights" role="alert">
            <Stack gap="xs" align="flex-start">
              <Text size="sm">{read.error.message}</Text>
              <Button size="xs" variant="light" onClick={() => void read.reload()}>
                Try again
              </Button>
            </Stack>
          </Alert>
        )}
        <StatGrid
          columns={3}
          loading={read.loading}
          items={[
            {
              label: 'Counted plays',
              value: (t?.plays ?? 0).toLocaleString('en-GB'),
              icon: IconHeadphones,
              color: 'violet',
            },
            {
              label: 'Unique listeners',
              value:
                t && t.listeners === null
                  ? 'fewer than 5'
                  : (t?.listeners ?? 0).toLocaleString('en-GB'),
              icon: IconUsers,
              color: 'blue',
            },
            {
              label: 'New followers',
              value: t?.followers === null ? 'All tracks only' : (t?.followers ?? 0).toString(),
              icon: IconUserPlus,
              color: 'teal',
            },
            { label: 'Likes', value: String(t?.likes ?? 0), icon: IconHeart, color: 'pink' },
            {
              label: 'Playlist adds',
              value: String(t?.playlist_adds ?? 0),
              icon: IconPlaylistAdd,
              color: 'grape',
            },
            {
              label: 'Earnings',
              value: formatEur(t?.earnings ?? 0),
              icon: IconCash,
              color: 'green',
            },
          ]}
        />

        <Section id="insights-plays" title={`Counted plays, last ${periodLabel}`}>
          {!data ? (
            <Skeleton h={220} role="status" aria-label="Loading plays" />
          ) : (
            <ChartAndTable
              label="Counted plays table"
              chart={
                <Suspense fallback={<Skeleton h={220} aria-hidden />}>
                  <SeriesChart
                    points={data.series.map((b) => ({
                      label: spanLabel(period, b.since, b.bucket),
                      plays: b.plays ?? 0,
                    }))}
                  />
                </Suspense>
              }
              table={
                <Table striped highlightOnHover fz="sm">
                  <caption>Counted plays, listeners and earnings per period</caption>
                  <thead>
                    <tr>
                      <th scope="col">Period</th>
                      <th scope="col">Plays</th>
                      <th scope="col">Listeners</th>
                      <th scope="col">Earned</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.series.map((b) => (
                      <tr key={b.bucket}>
                        <th scope="row">{spanLabel(period, b.since, b.bucket)}</th>
                        <td>{b.hidden ? 'fewer than 5 listeners' : b.plays}</td>
                        <td>{listenersLabel(b)}</td>
                        <td>{b.hidden || b.earnings === null ? '' : formatEur(b.earnings)}</td>
                      </tr>
                    ))}
                  </tbody>
                </Table>
              }
            />
          )}
          <Text size="xs" c="dimmed">
            Listeners per period are distinct people: a merged period counts each listener once, and
            a range (5–7) means at least the first and at most the second. Days in UTC.
          </Text>
        </Section>

        <Section id="insights-curve" title="Listen-through">
          {!data ? (
            <Skeleton h={240} role="status" aria-label="Loading the listen-through curve" />
          ) : !data.curve ? (
            <Text c="dimmed" data-testid="curve-empty">
              Not enough listens yet to show where listeners drop off without revealing anyone (it
              takes at least {data.min_listeners} listeners).
            </Text>
          ) : (
            <>
              <Group gap="xl" wrap="wrap">
                <Text>
                  Skip rate in the first 30 s:{' '}
                  <b>{t?.skip_rate === null || !t ? '–' : `${t.skip_rate}%`}</b>
                </Text>
                <Text>
                  Average listen time:{' '}
                  <b>{t?.avg_listen_seconds === null || !t ? '–' : clock(t.avg_listen_seconds)}</b>
                </Text>
              </Group>
              <ChartAndTable
                label="Listen-through table"
                chart={
                  <Suspense fallback={<Skeleton h={240} aria-hidden />}>
                    <CurveChart points={data.curve} tick={tick} />
                  </Suspense>
                }
                table={
                  <Table striped fz="sm" data-testid="curve-table">
                    <caption>
                      {data.unit === 'second'
                        ? 'Share of listens still playing at each point of the track'
                        : 'Share of listens still playing at each point of their track, in percent of its length'}
                    </caption>
                    <thead>
                      <tr>
                        <th scope="col">{data.unit === 'second' ? 'Time' : 'Of the track'}</th>
                        <th scope="col">Still listening</th>
                        <th scope="col">Reached by seeking</th>
                      </tr>
                    </thead>
                    <tbody>
                      {tablePoints(data.curve).map((p) => (
                        <tr key={p.x} data-share={p.share}>
                          <th scope="row">{tick(p.x)}</th>
                          <td>{p.share}%</td>
                          <td>{p.seek}%</td>
                        </tr>
                      ))}
                    </tbody>
                  </Table>
                }
              />
            </>
          )}
          <Text size="xs" c="dimmed">
            From the audio the server sent each listener and when: a second counts once the server
            had sent it and that much time had passed since the first byte. Seeks are shown apart.
            Downloads played offline are counted as plays, not in this curve.
          </Text>
        </Section>

        <Grid gap="lg">
          <Grid.Col span={{ base: 12, md: 6 }}>
            <Section id="insights-sources" title="Where listens come from">
              {!data ? (
                <Skeleton h={160} role="status" aria-label="Loading sources" />
              ) : data.sources.length === 0 ? (
                <Text c="dimmed">No sources to show yet (at least 5 listeners each).</Text>
              ) : (
                <Table fz="sm">
                  <caption>Counted plays by where the listen started</caption>
                  <thead>
                    <tr>
                      <th scope="col">Source</th>
                      <th scope="col">Plays</th>
                      <th scope="col">Share</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.sources.map((s) => {
                      const all = data.sources.reduce((a, b) => a + b.plays, 0) || 1;
                      const share = Math.round((s.plays * 100) / all);
                      return (
                        <tr key={s.source}>
                          <th scope="row">{SOURCE_LABEL[s.source]}</th>
                          <td>{s.plays.toLocaleString('en-GB')}</td>
                          <td style={{ minWidth: 110 }}>
                            <Group gap={6} wrap="nowrap">
                              <Progress value={share} w={60} aria-hidden color="ember" />
                              {share}%
                            </Group>
                          </td>
                        </tr>
                      );
                    })}
                  </tbody>
                </Table>
              )}
            </Section>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 6 }}>
            <Section
              id="insights-playlists"
              title={track ? 'Top playlists with this track' : 'Top playlists with your tracks'}
            >
              {!data ? (
                <Skeleton h={160} role="status" aria-label="Loading playlists" />
              ) : data.playlists.length === 0 ? (
                <Text c="dimmed">Not in any playlist yet.</Text>
              ) : (
                <Table fz="sm">
                  <caption>Playlists by the counted plays they brought</caption>
                  <thead>
                    <tr>
                      <th scope="col">Playlist</th>
                      <th scope="col">Plays it brought</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.playlists.map((p) => (
                      <tr key={p.id}>
                        <th scope="row">{p.name}</th>
                        <td>{p.plays === null ? 'fewer than 5 listeners' : p.plays}</td>
                      </tr>
                    ))}
                  </tbody>
                </Table>
              )}
            </Section>
          </Grid.Col>
        </Grid>
      </Stack>
    </Container>
  );
}
