import { Container, Stack } from '@mantine/core';
import { useSessionUserId } from '@/data/auth';
import { FriendsActivity } from './friends-activity';
import { HomeHero } from './home-hero';
import { HomeStats } from './home-stats';
import { RecentlyAdded } from './recently-added';
import { RecommendedForYou } from './recommended-for-you';
import { YourPlaylists } from './your-playlists';
import './home.css';

/**
 * /home (spec 2): greeting, stat cards, the free plan's upgrade banner, Recently Added,
 * Recommended For You, Friends Activity and Your Playlists. Each section reads its own data and
 * is memoised, so a sync that changes likes re-renders the stat cards, not the whole page
 * (docs/architecture.md, "Render cost").
 */
export function HomePage() {
  const userId = useSessionUserId();
  return (
    <Container size="xl" py={{ base: 'md', sm: 'xl' }} px={{ base: 'sm', sm: 'lg' }}>
      <Stack gap={36}>
        <Stack gap="lg">
          <HomeHero userId={userId} />
          <HomeStats userId={userId} />
        </Stack>
        <RecentlyAdded />
        <RecommendedForYou userId={userId} />
        <YourPlaylists userId={userId} />
        <FriendsActivity userId={userId} />
      </Stack>
    </Container>
  );
}
