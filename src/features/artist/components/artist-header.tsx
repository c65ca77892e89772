import { Badge, Box, Group, Stack, Text, Title, Tooltip, useMatches } from '@mantine/core';
import { IconRosetteDiscountCheckFilled } from '@tabler/icons-react';
import { CopyLinkButton } from '@/components/copy-link-button';
import { FollowButton, PersonAvatar } from '@/features/catalogue';
import hero from '@/features/catalogue/person-hero.module.css';
import type { ReactNode } from 'react';
import { formatCount } from '../artist-stats';

export interface ArtistHeaderProps {
  name: string;
  avatar: string | null;
  verified: boolean;
  followers: number | null;
  /** The artist's profile, when the name maps to one the viewer may follow (following: FollowButton's). */
  follow: { userId: string; following: boolean | undefined } | null;
  extra?: ReactNode;
}

/** Spec 2: avatar (generated when missing), name, verified badge, Share profile, Follow. */
export function ArtistHeader({
  name,
  avatar,
  verified,
  followers,
  follow,
  extra,
}: ArtistHeaderProps) {
  const avatarSize = useMatches({ base: 112, sm: 160 });
  return (
    <Box className={`${hero.hero} ${hero.artist}`} p={{ base: 'md', sm: 'xl' }}>
      <Group gap="xl" wrap="wrap" align="flex-end">
        <Box className={hero.avatar}>
          <PersonAvatar src={avatar} name={name} size={avatarSize} />
        </Box>
        <Stack gap={6} style={{ flex: '1 1 260px', minWidth: 0 }}>
          <Text size="xs" fw={700} tt="uppercase" c="gray.3" lts="0.12em">
            Artist
          </Text>
          <Group gap="xs" wrap="wrap" align="center">
            <Title order={1} className={hero.name}>
              {name}
            </Title>
            {verified && (
              <Tooltip label="Verified artist" withArrow>
                <Badge
                  variant="light"
                  color="ember"
                  size="lg"
                  radius="xl"
                  leftSection={<IconRosetteDiscountCheckFilled size={16} aria-hidden />}
                  style={{ flex: 'none' }}
                >
                  Verified
                </Badge>
              </Tooltip>
            )}
          </Group>
          {followers !== null && (
            <Text c="gray.3" size="sm">
              {formatCount(followers)} {followers === 1 ? 'follower' : 'followers'}
            </Text>
          )}
          <Group gap="sm" mt="sm">
            {follow && (
              <FollowButton userId={follow.userId} following={follow.following} name={name} />
            )}
            <CopyLinkButton label="Share profile" copiedLabel="Link copied!" radius="xl" />
            {extra}
          </Group>
        </Stack>
      </Group>
    </Box>
  );
}
