/**
 * Notification settings (docs/account.md § Notifications): which optional e-mails the signed-in
 * user turned off. Stored in `public.notification_preferences` (the owner's rows only, by RLS);
 * the server's mail sender asks `mail_wanted` before every send, so this only reads and writes.
 */
import { getSupabase } from './client';

/** The optional mail kinds (the database's `optional_mail_kinds()`). */
export type OptionalMailKind = 'social.new_follower';

/** Whether each optional mail is on (no row: on). */
export type NotificationSettings = Record<OptionalMailKind, boolean>;

export const DEFAULT_NOTIFICATION_SETTINGS: NotificationSettings = {
  'social.new_follower': true,
};

export async function fetchNotificationSettings(): Promise<NotificationSettings> {
  const client = await getSupabase();
  const { data, error } = await client.from('notification_preferences').select('kind, enabled');
  if (error) throw new Error(error.message || 'Failed to load your notification settings');
  const settings = { ...DEFAULT_NOTIFICATION_SETTINGS };
  for (const row of data ?? []) {
    if (row.kind in settings) settings[row.kind as OptionalMailKind] = row.enabled;
  }
  return settings;
}

export async function setNotificationSetting(
  userId: string,
  kind: OptionalMailKind,
  enabled: boolean,
): Promise<void> {
  const client = await getSupabase();
  const { error } = await client
    .from('notification_preferences')
    .upsert({ user_id: userId, kind, enabled });
  if (error) throw new Error(error.message || 'Failed to save your notification settings');
}
