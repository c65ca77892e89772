import { Badge, Button, Group, Pagination, Stack, Table, Text } from '@mantine/core';
import { SectionCard } from '@/components/section-card';
import { IconCheck, IconClock, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { type Track } from '@/data';
import { deleteTrack, setTrackVerified, type Page } from '@/data/remote/admin-remote';
import { toast } from '@/components/toast';
import { ConfirmDialog } from './confirm-dialog';
import { RowActions } from './row-actions';
import { trackStatus } from './track-status';
import { keyboardScrollable } from '@/lib/scroll-region';

export const MODERATION_PAGE_SIZE = 15;

export interface ModerationTableProps {
  page: Page<Track> | undefined;
  pageIndex: number;
  onPage(index: number): void;
  onChanged(): void;
}

/** Spec 6: the tracks, unverified first, 15 a page; Approve / Mark Pending; delete confirmed. */
export function ModerationTable({ page, pageIndex, onPage, onChanged }: ModerationTableProps) {
  const [busy, setBusy] = useState<string | null>(null);
  const [doomed, setDoomed] = useState<Track | null>(null);

  async function toggle(track: Track) {
    setBusy(track.id);
    try {
      await setTrackVerified(track.id, !track.verified);
      toast.success(track.verified ? 'Track marked for review' : 'Track approved');
      onChanged();
    } catch {
      toast.error('Failed to update track status');
    } finally {
      setBusy(null);
    }
  }

  async function remove() {
    if (!doomed) return;
    setBusy(doomed.id);
    try {
      await deleteTrack(doomed.id);
      toast.success('Track removed from the catalogue');
      setDoomed(null);
      onChanged();
    } catch {
      toast.error('Failed to delete track');
    } finally {
      setBusy(null);
    }
  }

  const pages = page ? Math.max(1, Math.ceil(page.total / MODERATION_PAGE_SIZE)) : 1;
  return (
    <>
      <SectionCard
        title="Track moderation"
        id="moderation-title"
        data={page}
        skeletonHeight={200}
        empty={(page) => (page.rows.length === 0 ? 'No tracks yet.' : null)}
        footer={
          page &&
          page.total > MODERATION_PAGE_SIZE && (
            <Group justify="space-between" wrap="wrap">
              <Text size="xs" c="dimmed">
                {page.total.toLocaleString('en-GB')} tracks
              </Text>
              <Pagination
                total={pages}
                value={pageIndex + 1}
                onChange={(p) => onPage(p - 1)}
                size="sm"
                aria-label="Track pages"
              />
            </Group>
          )
        }
      >
        {(page) => (
          <>
            {/* The status under the title. On a phone: two columns, the track (with its artist
                and date under the title too) and its actions one above the other. */}
            <Table.ScrollContainer
              minWidth={300}
              scrollAreaProps={keyboardScrollable('Moderation table')}
            >
              <Table verticalSpacing="xs" aria-label="Track moderation">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Track</Table.Th>
                    <Table.Th visibleFrom="sm">Artist</Table.Th>
                    <Table.Th visibleFrom="sm">Uploaded</Table.Th>
                    <Table.Th>Actions</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {page.rows.map((t) => {
                    const status = trackStatus(t);
                    const uploaded = new Date(t.createdAt).toLocaleDateString('en-GB');
                    return (
                      <Table.Tr key={t.id} data-testid="moderation-row">
                        <Table.Td>
                          <Stack gap={4} align="flex-start">
                            <Text fw={600} size="sm">
                              {t.title}
                            </Text>
                            <Text size="xs" c="dimmed" hiddenFrom="sm">
                              {t.artist} · {uploaded}
                            </Text>
                            <Badge color={status.color} variant="light" miw="max-content">
                              {status.label}
                            </Badge>
                          </Stack>
                        </Table.Td>
                        <Table.Td visibleFrom="sm">{t.artist}</Table.Td>
                        <Table.Td visibleFrom="sm">{uploaded}</Table.Td>
                        <Table.Td>
                          <RowActions>
                            <Button
                              size="compact-sm"
                              variant="light"
                              color={t.verified ? 'yellow' : 'green'}
                              leftSection={
                                t.verified ? <IconClock size={14} /> : <IconCheck size={14} />
                              }
                              loading={busy === t.id}
                              onClick={() => void toggle(t)}
                              aria-label={`${t.verified ? 'Mark Pending' : 'Approve'} ${t.title}`}
                            >
                              {t.verified ? 'Mark Pending' : 'Approve'}
                            </Button>
                            <Button
                              size="compact-sm"
                              variant="subtle"
                              color="red"
                              leftSection={<IconTrash size={14} />}
                              onClick={() => setDoomed(t)}
                              aria-label={`Delete ${t.title}`}
                            >
                              Delete
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
        opened={doomed !== null}
        title="Delete track"
        message={`Delete "${doomed?.title ?? ''}" by ${doomed?.artist ?? ''}? Its audio and cover are removed too. This cannot be undone.`}
        confirmLabel="Delete track"
        busy={busy !== null && busy === doomed?.id}
        onConfirm={() => void remove()}
        onClose={() => setDoomed(null)}
      />
    </>
  );
}
