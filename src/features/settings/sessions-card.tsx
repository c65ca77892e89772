import { Alert, Badge, Button, Group, Loader, Stack, Text } from '@mantine/core';
import Bowser from 'bowser';
import { useEffect, useState } from 'react';
import { toast } from '@/components/toast';
import { endSession, listSessions, signOutOtherSessions, type DeviceSession } from '@/data/auth';

/** "Chrome 131 on Linux" from a User-Agent (the `bowser` package), or a plain fallback. */
export function deviceName(userAgent: string | null): string {
  if (!userAgent) return 'Unknown device';
  const ua = Bowser.parse(userAgent);
  const browser = [ua.browser.name, ua.browser.version?.split('.')[0]].filter(Boolean).join(' ');
  const os = ua.os.name ?? '';
  if (!browser) return os || 'Unknown browser';
  return os ? `${browser} on ${os}` : browser;
}

const regions = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

/** "Germany" from the session's country code (the browser's own names), or "Unknown place". */
export function placeName(country: string | null): string {
  if (!country) return 'Unknown place';
  try {
    return regions.of(country) ?? 'Unknown place';
  } catch {
    return 'Unknown place';
  }
}

const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * Signed-in devices (docs/account.md): browser, rough place (the country the auth server found
 * for the address), last activity and the network (the address cut to /24 or /48 by the
 * database), "Sign out" per device and "Sign out everywhere else".
 */
export function SessionsCard() {
  const [rows, setRows] = useState<DeviceSession[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const fetchRows = () => {
    listSessions()
      .then((r) => {
        setRows(r);
        setError(null);
      })
      .catch((e: unknown) => setError(e instanceof Error ? e.message : 'Failed to load'));
  };
  useEffect(fetchRows, []);
  const load = () => {
    setError(null);
    fetchRows();
  };

  if (error)
    return (
      <Alert color="red" role="alert">
        {error}{' '}
        <Button variant="subtle" size="xs" onClick={load}>
          Try again
        </Button>
      </Alert>
    );
  if (!rows) return <Loader size="sm" aria-label="Loading your devices" />;
  const others = rows.filter((r) => !r.current);
  return (
    <Stack gap="sm">
      <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {rows.map((r) => (
          <Group
            key={r.id}
            component="li"
            justify="space-between"
            wrap="wrap"
            gap="xs"
            data-testid="device-session"
          >
            <div>
              <Text size="sm" fw={600}>
                {deviceName(r.userAgent)}{' '}
                {r.current ? (
                  <Badge size="xs" color="teal" variant="light">
                    This device
                  </Badge>
                ) : null}
              </Text>
              <Text size="xs" c="dimmed">
                {placeName(r.country)} · Last active {when(r.lastActiveAt)}
                {r.network ? ` · network ${r.network}` : ''}
              </Text>
            </div>
            {r.current ? null : (
              <Button
                size="xs"
                variant="default"
                aria-label={`Sign out ${deviceName(r.userAgent)}, ${placeName(r.country)}, last active ${when(r.lastActiveAt)}`}
                onClick={() =>
                  void endSession(r.id)
                    .then(load)
                    .catch((e: unknown) =>
                      toast.error(e instanceof Error ? e.message : 'Failed to sign out'),
                    )
                }
              >
                Sign out
              </Button>
            )}
          </Group>
        ))}
      </Stack>
      {others.length > 0 ? (
        <Button
          color="red"
          variant="light"
          style={{ alignSelf: 'flex-start' }}
          onClick={() =>
            void signOutOtherSessions()
              .then(() => {
                toast.success('Signed out everywhere else');
                load();
              })
              .catch((e: unknown) =>
                toast.error(e instanceof Error ? e.message : 'Failed to sign out'),
              )
          }
        >
          Sign out everywhere else
        </Button>
      ) : (
        <Text size="sm" c="dimmed">
          You are signed in on this device only.
        </Text>
      )}
    </Stack>
  );
}
