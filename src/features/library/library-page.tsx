import { Badge, Button, Container, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import {
  IconCloudUpload,
  IconDownload,
  IconHeart,
  IconPlaylist,
  IconPlus,
} from '@tabler/icons-react';
import { useNavigate } from '@tanstack/react-router';
import { Suspense, type ReactNode } from 'react';
import { LazyOverlay } from '@/components/lazy-overlay';
import { useDownloads, useLikeCount, usePlaylistCount, useUploadCount } from '@/data';
import { useCurrentUserId } from '@/features/catalogue';
import { LikedTab } from './liked-tab';
import { ListLoader } from './list-loader';
import {
  DEFAULT_LIBRARY_TAB,
  isLibraryTab,
  LIBRARY_TAB_LABELS,
  LIBRARY_TABS,
  type LibrarySearch,
  type LibraryTab,
} from './library-search';
import { PlaylistsTab } from './playlists-tab';
import { lazyChunk } from '@/lib/lazy-chunk';

// Downloads (storage figures, the quality choice, the queue) load when their tab is opened.
const DownloadsTab = lazyChunk(() =>
  import('./downloads-tab').then((m) => ({ default: m.DownloadsTab })),
);
// The form's Modal (with ScrollArea and @floating-ui) loads when ?create or ?edit first asks for it.
const PlaylistFormModal = lazyChunk(() =>
  import('./playlist-form-modal').then((m) => ({ default: m.PlaylistFormModal })),
);

const ICONS: Record<LibraryTab, ReactNode> = {
  uploads: <IconCloudUpload size={16} aria-hidden />,
  liked: <IconHeart size={16} aria-hidden />,
  playlists: <IconPlaylist size={16} aria-hidden />,
  downloads: <IconDownload size={16} aria-hidden />,
};

/**
 * /library (spec 2): Your Uploads, Liked Songs, Playlists; the tab lives in the URL. Your Uploads
 * is the artist studio's (features/upload), composed in by the route.
 */
export function LibraryPage({ search, uploads }: { search: LibrarySearch; uploads: ReactNode }) {
  const navigate = useNavigate();
  const userId = useCurrentUserId();
  const counts: Record<LibraryTab, number | undefined> = {
    uploads: useUploadCount(userId),
    liked: useLikeCount(userId),
    playlists: usePlaylistCount(userId),
    downloads: useDownloads(userId).filter((d) => d.state === 'done').length,
  };
  // The router merges the raw query under the validated one, so an unknown ?tab= can still be
  // here: only a known tab counts.
  const tab = isLibraryTab(search.tab) ? search.tab : DEFAULT_LIBRARY_TAB;
  const openCreate = () =>
    void navigate({ to: '/library', search: { tab: search.tab, create: 'playlist' } });
  const closeForm = () =>
    void navigate({ to: '/library', search: { tab: search.tab }, replace: true });

  return (
    <Container size="xl" py={{ base: 'md', sm: 'xl' }} px={{ base: 'sm', sm: 'lg' }}>
      <Stack gap="lg">
        <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
          <div>
            <Title order={1}>Your Library</Title>
            <Text c="dimmed" size="sm">
              Your uploads, the songs you love and the playlists you make.
            </Text>
          </div>
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={openCreate}>
            New playlist
          </Button>
        </Group>
        <Tabs
          value={tab}
          keepMounted={false}
          onChange={(value) => {
            if (isLibraryTab(value) && value !== search.tab)
              void navigate({ to: '/library', search: { tab: value } });
          }}
        >
          <Tabs.List mb="lg" style={{ flexWrap: 'nowrap', overflowX: 'auto' }}>
            {LIBRARY_TABS.map((value) => (
              <Tabs.Tab
                key={value}
                value={value}
                // The list scrolls sideways on a phone; a squeezed tab would crush its count.
                style={{ flexShrink: 0 }}
                leftSection={ICONS[value]}
                rightSection={
                  counts[value] ? (
                    <Badge size="xs" variant="light" color="gray" aria-hidden>
                      {counts[value]}
                    </Badge>
                  ) : null
                }
              >
                {LIBRARY_TAB_LABELS[value]}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          <Tabs.Panel value="uploads">{uploads}</Tabs.Panel>
          <Tabs.Panel value="liked">
            <LikedTab />
          </Tabs.Panel>
          <Tabs.Panel value="playlists">
            <PlaylistsTab onCreate={openCreate} />
          </Tabs.Panel>
          <Tabs.Panel value="downloads">
            <Suspense fallback={<ListLoader label="Downloads" />}>
              <DownloadsTab />
            </Suspense>
          </Tabs.Panel>
        </Tabs>
      </Stack>
      <LazyOverlay opened={search.create === 'playlist' || Boolean(search.edit)}>
        <PlaylistFormModal search={search} onClose={closeForm} />
      </LazyOverlay>
    </Container>
  );
}
