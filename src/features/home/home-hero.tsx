import { Stack, Text, Title } from '@mantine/core';
import { memo } from 'react';
import { useProfile } from '@/data';
import { useSessionUser } from '@/data/auth';
import { welcomeFor } from '@/lib/welcome';
import { greetingName } from './home-text';

/**
 * The greeting: part of the day and the first name, or 'Music Lover' (spec 2); a brand-new
 * account is welcomed, not welcomed back.
 */
export const HomeHero = memo(function HomeHero({ userId }: { userId: string | null }) {
  const user = useSessionUser();
  const profile = useProfile(userId);
  const name = greetingName(profile?.name, user?.user_metadata.name);
  const welcome = welcomeFor(user?.created_at);
  return (
    <div className="home-hero">
      <Stack gap={4} p={{ base: 'md', sm: 'xl' }}>
        <Text size="sm" c="ember.3" fw={600}>
          {partOfDay()}
        </Text>
        <Title order={1} fz={{ base: 'h2', sm: 'h1' }}>
          {welcome}, {name}
        </Title>
        <Text c="gray.4" size="sm">
          New releases, picks for you and what your friends are playing.
        </Text>
      </Stack>
    </div>
  );
});

function partOfDay(date = new Date()): string {
  const hour = date.getHours();
  if (hour < 5) return 'Late night listening';
  if (hour < 12) return 'Good morning';
  if (hour < 18) return 'Good afternoon';
  return 'Good evening';
}
