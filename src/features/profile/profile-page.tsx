import { Button, Center, Container, Loader, Stack, Text, Title } from '@mantine/core';
import { IconEdit, IconLogout, IconUserQuestion } from '@tabler/icons-react';
import { useNavigate } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import { ButtonLink } from '@/components/router-links';
import { useAllTracks, usePlaylists, useUserTracks, type Profile } from '@/data';
import { useProfileCounts, useProfileLookup } from '@/data/repositories/profile-lookup';
import { logout, useAuth } from '@/data/auth';
import { FollowButton, TrackList } from '@/features/catalogue';
import { FeaturedSections } from './components/featured-sections';
import { ProfileEditForm } from './components/profile-edit-form';
import { ProfileHeader } from './components/profile-header';
import { SuspendedNotice } from '@/features/catalogue/suspended-notice';
import { ProfileStats } from './components/profile-stats';

/** /profile and /profile/{userId} (spec 2): own profile when no id or the signed-in user's id. */
export function ProfilePage({ userId }: { userId?: string }) {
  const { session } = useAuth();
  const me = session?.user.id ?? null;
  const id = userId ?? me;
  if (!id) return null;
  return <ProfileScreen key={id} id={id} me={me} email={session?.user.email ?? null} />;
}

function ProfileScreen({ id, me, email }: { id: string; me: string | null; email: string | null }) {
  const { status, profile } = useProfileLookup(id);
  if (status === 'loading') {
    return (
      <Center mih={320}>
        <Loader color="ember" aria-label="Loading profile" />
      </Center>
    );
  }
  if (!profile) return <ProfileNotFound />;
  return <ProfileView profile={profile} own={id === me} me={me} email={email} />;
}

function ProfileView({
  profile,
  own,
  me,
  email,
}: {
  profile: Profile;
  own: boolean;
  me: string | null;
  email: string | null;
}) {
  const navigate = useNavigate();
  const [editing, setEditing] = useState(false);
  const uploads = useUserTracks(profile.id);
  const ownPlaylists = usePlaylists(own ? profile.id : null);
  const allTracks = useAllTracks();
  const counts = useProfileCounts(profile.id, me, profile.followers);
  const featuredTrack = useMemo(
    () => allTracks.find((t) => t.id === profile.featuredTrack) ?? null,
    [allTracks, profile.featuredTrack],
  );

  const signOut = () => {
    logout()
      .then(() => navigate({ to: '/login' }))
      .catch((e: unknown) => console.error('Failed to logout', e));
  };

  const actions = own ? (
    <>
      {!editing && (
        <Button
          radius="xl"
          leftSection={<IconEdit size={16} aria-hidden />}
          onClick={() => setEditing(true)}
        >
          Edit profile
        </Button>
      )}
      <Button
        radius="xl"
        variant="default"
        leftSection={<IconLogout size={16} aria-hidden />}
        onClick={signOut}
      >
        Log out
      </Button>
    </>
  ) : me ? (
    <FollowButton userId={profile.id} following={counts.isFollowing} name={profile.name} />
  ) : null;

  return (
    <Container size="lg" py={{ base: 'md', sm: 'xl' }} px={{ base: 'sm', sm: 'md' }}>
      <Stack gap="xl">
        <ProfileHeader profile={profile} email={own ? email : null} actions={actions} />
        <SuspendedNotice userId={profile.id} />
        <ProfileStats
          uploads={uploads.length}
          playlists={counts.playlists}
          followers={counts.followers}
          following={counts.following}
        />
        {own && editing ? (
          <ProfileEditForm
            profile={profile}
            email={email}
            uploads={uploads}
            playlists={ownPlaylists}
            onClose={() => setEditing(false)}
          />
        ) : (
          <FeaturedSections track={featuredTrack} playlistId={profile.featuredPlaylist} />
        )}
        {uploads.length > 0 && (
          <section aria-labelledby="uploads-heading">
            <Title order={2} fz="xl" mb="sm" id="uploads-heading">
              Uploads
            </Title>
            <TrackList tracks={uploads} label={`Uploads by ${profile.name}`} />
          </section>
        )}
      </Stack>
    </Container>
  );
}

function ProfileNotFound() {
  return (
    <Container size="sm" py={64}>
      <Stack align="center" gap="md" ta="center">
        <IconUserQuestion size={56} stroke={1.5} aria-hidden color="var(--mantine-color-gray-5)" />
        <Title order={1}>Profile not found.</Title>
        <Text c="gray.4">This profile does not exist or is no longer available.</Text>
        <ButtonLink to="/home" radius="xl">
          Go to Home
        </ButtonLink>
      </Stack>
    </Container>
  );
}
