import { Badge, Box, Group, Stack, Text, Title, useMatches } from '@mantine/core';
import { IconCalendar, IconMail } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import type { Profile } from '@/data';
import { PersonAvatar } from '@/features/catalogue';
import hero from '@/features/catalogue/person-hero.module.css';
import { planNameOf } from '@/lib/plans';
import { memberSince } from '../profile-form';
import { SocialLinks } from './social-links';

export interface ProfileHeaderProps {
  profile: Profile;
  /** Own profile only. */
  email: string | null;
  actions: ReactNode;
}

/** Name, avatar (generated initials when missing), plan, member since, email, bio, links. */
export function ProfileHeader({ profile, email, actions }: ProfileHeaderProps) {
  const size = useMatches({ base: 104, sm: 144 });
  const since = memberSince(profile.createdAt);
  return (
    <Box className={`${hero.hero} ${hero.profile}`} p={{ base: 'md', sm: 'xl' }}>
      <Group gap="xl" align="flex-start" wrap="wrap">
        <Box className={hero.avatar}>
          <PersonAvatar src={profile.avatar} name={profile.name} size={size} />
        </Box>
        <Stack gap="xs" style={{ flex: 1, minWidth: 220 }}>
          <Group gap="xs" align="center">
            <Title order={1} className={hero.name}>
              {profile.name}
            </Title>
            <Badge variant="light" color="ember" radius="xl" size="lg">
              {planNameOf(profile.subscriptionPlan)} plan
            </Badge>
          </Group>
          <Group gap="lg" c="gray.4">
            {email && (
              <Group gap={6} wrap="nowrap">
                <IconMail size={16} aria-hidden />
                <Text size="sm">{email}</Text>
              </Group>
            )}
            {since && (
              <Group gap={6} wrap="nowrap">
                <IconCalendar size={16} aria-hidden />
                <Text size="sm">{since}</Text>
              </Group>
            )}
          </Group>
          {profile.bio?.trim() && (
            <Text c="gray.2" maw={680} style={{ whiteSpace: 'pre-line' }}>
              {profile.bio}
            </Text>
          )}
          <SocialLinks links={profile.socialLinks} />
          <Group gap="sm" mt="xs">
            {actions}
          </Group>
        </Stack>
      </Group>
    </Box>
  );
}
