import { Alert, Button, List, Loader, Stack, Switch, Text, Title } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useState } from 'react';
import { useSessionUserId } from '@/data/auth';
import {
  fetchNotificationSettings,
  setNotificationSetting,
  type OptionalMailKind,
} from '@/data/remote/notifications-remote';
import { useServerRead } from '@/data/repositories/use-server-read';

/** The mails a person may turn off (the server honours them when it sends). */
const OPTIONAL: { kind: OptionalMailKind; label: string; description: string }[] = [
  {
    kind: 'social.new_follower',
    label: 'New followers',
    description: 'When someone follows you (once per follower)',
  },
];

/** The mails always sent, and why (docs/account.md § Notifications). */
const REQUIRED: { label: string; what: string; why: string }[] = [
  {
    label: 'Sign-in and security',
    what: 'Confirming your address, password resets, sign-in links and codes, e-mail address changes.',
    why: 'They keep your account safe and only you can act on them.',
  },
  {
    label: 'Your data and your account',
    what: 'Your data export link, and when an account deletion is scheduled or cancelled.',
    why: 'You asked for these, or they tell you about a change to your account.',
  },
  {
    label: 'Moderation and copyright',
    what: 'Warnings, suspensions and their appeals, copyright notices and counter-notices about your uploads.',
    why: 'The law and our terms require us to tell you about decisions that affect you.',
  },
];

/**
 * Settings › Notifications: the optional mails with a switch each (stored in
 * `notification_preferences`), then the mails that cannot be turned off with the reason.
 */
export function NotificationsSection() {
  const userId = useSessionUserId();
  const settings = useServerRead(fetchNotificationSettings, userId);
  const [saving, setSaving] = useState<OptionalMailKind | null>(null);
  const [error, setError] = useState<string | null>(null);

  const change = async (kind: OptionalMailKind, enabled: boolean) => {
    if (!userId) return;
    setSaving(kind);
    setError(null);
    try {
      await setNotificationSetting(userId, kind, enabled);
      await settings.reload();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setSaving(null);
    }
  };

  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        We send e-mail to your account&apos;s address. Choose which of these you want:
      </Text>
      {settings.loading ? (
        <Loader size="sm" aria-label="Loading your notification settings" />
      ) : settings.error && !settings.data ? (
        <Alert color="red" icon={<IconAlertCircle size={16} />} title="Could not load">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{settings.error.message}</Text>
            <Button size="xs" variant="light" onClick={() => void settings.reload()}>
              Try again
            </Button>
          </Stack>
        </Alert>
      ) : (
        OPTIONAL.map((o) => (
          <Switch
            key={o.kind}
            checked={settings.data?.[o.kind] ?? true}
            disabled={saving !== null}
            onChange={(event) => void change(o.kind, event.currentTarget.checked)}
            label={o.label}
            description={o.description}
          />
        ))
      )}
      {error ? (
        <Alert color="red" icon={<IconAlertCircle size={16} />} role="alert">
          {error}
        </Alert>
      ) : null}
      <Title order={3} size="h5">
        Always sent
      </Title>
      <List spacing="xs" size="sm" aria-label="E-mails that cannot be turned off">
        {REQUIRED.map((r) => (
          <List.Item key={r.label}>
            <Text size="sm" fw={600} span>
              {r.label}:
            </Text>{' '}
            {r.what}{' '}
            <Text size="sm" c="dimmed" span>
              {r.why}
            </Text>
          </List.Item>
        ))}
      </List>
      <Text size="sm" c="dimmed">
        We send no newsletters or marketing e-mail.
      </Text>
    </Stack>
  );
}
