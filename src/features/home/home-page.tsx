import { Container, Skeleton, Stack, Text, Title } from '@mantine/core';
import {
  useAllTracks,
  useLikedTrackIds,
  useMirrorLoading,
  usePlaylists,
  useProfile,
  useUserTracks,
} from '@/data';
import { useAuth } from '@/data/auth';
import { FriendsActivity } from './friends-activity';
import { greetingName, planName } from './home-text';
import { RECENTLY_ADDED_COUNT, RecentlyAdded } from './recently-added';
import { RecommendedForYou } from './recommended-for-you';
import { StatCards } from './stat-cards';
import { UpgradeBanner } from './upgrade-banner';
import { YourPlaylists } from './your-playlists';
import './home.css';

/**
 * /home (spec 2): greeting, stat cards, the free plan's upgrade banner, Recently Added,
 * Recommended For You, Friends Activity and Your Playlists.
 */
export function HomePage() {
  const { session } = useAuth();
  const userId = session?.user.id ?? null;
  const loading = useMirrorLoading();
  const profile = useProfile(userId);
  const catalogue = useAllTracks();
  const uploads = useUserTracks(userId);
  const liked = useLikedTrackIds(userId);
  const playlists = usePlaylists(userId);
  const name = greetingName(profile?.name, session?.user.user_metadata.name);
  const recent = catalogue.slice(0, RECENTLY_ADDED_COUNT);

  return (
    <Container size="xl" py={{ base: 'md', sm: 'xl' }} px={{ base: 'sm', sm: 'lg' }}>
      <Stack gap={36}>
        <Stack gap="lg">
          <div className="home-hero">
            <Stack gap={4} p={{ base: 'md', sm: 'xl' }}>
              <Text size="sm" c="ember.3" fw={600}>
                {partOfDay()}
              </Text>
              <Title order={1} fz={{ base: 'h2', sm: 'h1' }}>
                Welcome back, {name}
              </Title>
              <Text c="gray.4" size="sm">
                New releases, picks for you and what your friends are playing.
              </Text>
            </Stack>
          </div>
          <StatCards
            loading={loading}
            stats={{
              tracks: uploads.length,
              liked: liked.length,
              playlists: playlists.length,
              plan: planName(profile?.subscriptionPlan),
            }}
          />
          {profile?.subscriptionPlan === 'free' ? <UpgradeBanner /> : null}
          {!profile && loading ? <Skeleton h={96} radius="lg" aria-hidden /> : null}
        </Stack>
        <RecentlyAdded tracks={recent} loading={loading} />
        <RecommendedForYou userId={userId} />
        <YourPlaylists playlists={playlists} loading={loading} />
        <FriendsActivity userId={userId} />
      </Stack>
    </Container>
  );
}

function partOfDay(date = new Date()): string {
  const hour = date.getHours();
  if (hour < 5) return 'Late night listening';
  if (hour < 12) return 'Good morning';
  if (hour < 18) return 'Good afternoon';
  return 'Good evening';
}
