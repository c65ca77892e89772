import { Avatar, Group, Pagination, Paper, SimpleGrid, Text } from '@mantine/core';
import { SectionCard } from '@/components/section-card';
import type { AdminArtist, Page } from '@/data/remote/admin-remote';
import { AnchorLink } from '@/components/router-links';

export const ARTIST_PAGE_SIZE = 9;

export interface ArtistCardsProps {
  page: Page<AdminArtist> | undefined;
  pageIndex: number;
  onPage(index: number): void;
}

/** Spec 6: artist cards, 9 at a time (users with at least one track, newest first). */
export function ArtistCards({ page, pageIndex, onPage }: ArtistCardsProps) {
  const pages = page ? Math.max(1, Math.ceil(page.total / ARTIST_PAGE_SIZE)) : 1;
  return (
    <SectionCard
      title="Artists"
      id="artists-title"
      data={page}
      skeletonHeight={160}
      empty={(page) => (page.rows.length === 0 ? 'No artists yet.' : null)}
      footer={
        page &&
        page.total > ARTIST_PAGE_SIZE && (
          <Pagination
            total={pages}
            value={pageIndex + 1}
            onChange={(p) => onPage(p - 1)}
            size="sm"
            aria-label="Artist pages"
          />
        )
      }
    >
      {(page) => (
        <>
          <SimpleGrid cols={{ base: 1, xs: 2, lg: 3 }} spacing="sm">
            {page.rows.map((a) => (
              <Paper key={a.id} withBorder radius="md" p="sm" bg="dark.6">
                <Group wrap="nowrap" gap="sm">
                  <Avatar
                    src={a.avatar}
                    // Decorative: the name is the link next to it.
                    alt=""
                    name={a.name || a.email || '?'}
                    color="initials"
                    radius="xl"
                  />
                  <div style={{ minWidth: 0 }}>
                    <AnchorLink
                      to="/profile/$userId"
                      params={{ userId: a.id }}
                      fw={600}
                      c="white"
                      truncate="end"
                      display="block"
                    >
                      {a.name || a.email}
                    </AnchorLink>
                    <Text size="xs" c="dimmed" truncate>
                      {a.email}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {a.trackCount} tracks · {a.plays.toLocaleString('en-GB')} plays ·{' '}
                      {a.subscriptionPlan}
                    </Text>
                  </div>
                </Group>
              </Paper>
            ))}
          </SimpleGrid>
        </>
      )}
    </SectionCard>
  );
}
