import { Anchor, Container, Group, Stack, Title } from '@mantine/core';
import { useAuth } from '@/data/auth';
import { EmailForm } from './email-form';
import { NotificationsSection } from './notifications-section';
import { PasswordForm } from './password-form';
import { PlaybackSection } from './playback-section';
import { PrivacySection } from './privacy-section';
import { SessionsCard } from './sessions-card';
import { SettingsSection } from './settings-section';
import { TwoFactorCard } from './two-factor-card';

const SECTIONS = [
  { id: 'account', label: 'Account' },
  { id: 'security', label: 'Security' },
  { id: 'privacy', label: 'Privacy' },
  { id: 'playback', label: 'Playback' },
  { id: 'notifications', label: 'Notifications' },
] as const;

/** /settings (docs/account.md): account, security, privacy, playback, notifications. */
export function SettingsPage() {
  const { session } = useAuth();
  const user = session?.user;
  if (!user) return null;
  return (
    <Container size="md" py={{ base: 'md', sm: 'xl' }} px={{ base: 'sm', sm: 'md' }}>
      <Stack gap="lg">
        <Title order={1}>Settings</Title>
        <nav aria-label="Settings sections">
          <Group gap="md" wrap="wrap">
            {SECTIONS.map((s) => (
              <Anchor key={s.id} href={`#${s.id}`} size="sm">
                {s.label}
              </Anchor>
            ))}
          </Group>
        </nav>
        <SettingsSection id="account" title="Account">
          <EmailForm email={user.email ?? ''} pending={user.new_email ?? null} />
          <Title order={3} size="h5">
            Password
          </Title>
          <PasswordForm />
        </SettingsSection>
        <SettingsSection id="security" title="Security">
          <Title order={3} size="h5">
            Two-factor sign-in
          </Title>
          <TwoFactorCard />
          <Title order={3} size="h5">
            Signed-in devices
          </Title>
          <SessionsCard />
        </SettingsSection>
        <SettingsSection id="privacy" title="Privacy">
          <PrivacySection />
        </SettingsSection>
        <SettingsSection id="playback" title="Playback">
          <PlaybackSection />
        </SettingsSection>
        <SettingsSection id="notifications" title="Notifications">
          <NotificationsSection />
        </SettingsSection>
      </Stack>
    </Container>
  );
}
