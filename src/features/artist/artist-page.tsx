import { Center, Container, Loader, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconMicrophone2 } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { ButtonLink } from '@/components/router-links';
import { useArtist } from '@/data/repositories/artist-lookup';
import { useProfileCounts } from '@/data/repositories/profile-lookup';
import { TrackList, useCurrentUserId } from '@/features/catalogue';
import { artistStats, byPlays, groupAlbums, isVerifiedArtist, latestRelease } from './artist-stats';
import { ArtistAbout } from './components/artist-about';
import { ArtistAlbums } from './components/artist-albums';
import { ArtistHeader } from './components/artist-header';
import { SuspendedNotice } from '@/features/catalogue/suspended-notice';
import { ArtistStatCards } from './components/artist-stat-cards';
import { EmptyNote } from './components/empty-note';
import { TopTrackCard } from './components/top-track-card';

type Tab = 'top' | 'albums' | 'about';

/** /artist/{artistName} (spec 2): header, stat cards, top track, tabs Top Tracks / Albums / About. */
export function ArtistPage({ artistName }: { artistName: string }) {
  const artist = useArtist(artistName);
  const me = useCurrentUserId();
  const counts = useProfileCounts(artist.profileId, me, artist.profile?.followers ?? null);
  const [tab, setTab] = useState<Tab>('top');
  const { tracks } = artist;
  const top = useMemo(() => byPlays(tracks), [tracks]);
  const albums = useMemo(() => groupAlbums(tracks), [tracks]);
  const stats = useMemo(() => artistStats(tracks), [tracks]);

  if (artist.status === 'loading') {
    return (
      <Center mih={320}>
        <Loader color="ember" aria-label="Loading artist" />
      </Center>
    );
  }
  if (artist.status === 'missing') return <ArtistNotFound name={artistName} />;

  const bio = artist.profile?.bio?.trim() ?? '';
  const topTrack = top[0];
  const canFollow = artist.profileId !== null && artist.profileId !== me;
  const current: Tab = tab === 'about' && !bio ? 'top' : tab;

  return (
    <Container size="xl" py={{ base: 'md', sm: 'xl' }} px={{ base: 'sm', sm: 'md' }}>
      <Stack gap="xl">
        <ArtistHeader
          name={tracks[0]?.artist ?? artistName}
          avatar={artist.profile?.avatar ?? null}
          verified={isVerifiedArtist(tracks)}
          followers={artist.profileId ? counts.followers : null}
          follow={
            canFollow && artist.profileId
              ? { userId: artist.profileId, following: counts.isFollowing }
              : null
          }
        />
        <SuspendedNotice userId={artist.profileId} />
        <ArtistStatCards stats={stats} />
        {topTrack && <TopTrackCard track={topTrack} queue={top} />}
        <Tabs
          value={current}
          onChange={(v) => setTab((v as Tab | null) ?? 'top')}
          color="ember"
          keepMounted={false}
        >
          <Tabs.List mb="md">
            <Tabs.Tab value="top">Top Tracks</Tabs.Tab>
            <Tabs.Tab value="albums">Albums</Tabs.Tab>
            {bio && <Tabs.Tab value="about">About</Tabs.Tab>}
          </Tabs.List>
          <Tabs.Panel value="top">
            <TrackList
              tracks={top}
              label={`Top tracks by ${artistName}`}
              empty={<EmptyNote title="No tracks yet" text="New releases will show up here." />}
            />
          </Tabs.Panel>
          <Tabs.Panel value="albums">
            <ArtistAlbums albums={albums} />
          </Tabs.Panel>
          {bio && (
            <Tabs.Panel value="about">
              <ArtistAbout
                bio={bio}
                latest={latestRelease(tracks)}
                stats={stats}
                albumCount={albums.length}
                followers={artist.profileId ? counts.followers : null}
              />
            </Tabs.Panel>
          )}
        </Tabs>
      </Stack>
    </Container>
  );
}

function ArtistNotFound({ name }: { name: string }) {
  return (
    <Container size="sm" py={64}>
      <Stack align="center" gap="md" ta="center">
        <IconMicrophone2 size={56} stroke={1.5} aria-hidden color="var(--mantine-color-gray-5)" />
        <Title order={1}>Artist Not Found</Title>
        <Text c="gray.4">
          We couldn&apos;t find an artist called &ldquo;{name}&rdquo;. Check the spelling or explore
          the catalogue.
        </Text>
        <ButtonLink to="/explore" radius="xl">
          Explore music
        </ButtonLink>
      </Stack>
    </Container>
  );
}
