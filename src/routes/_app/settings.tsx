import { createFileRoute } from '@tanstack/react-router';
import { SettingsPage } from '@/features/settings/settings-page';
import { titleHead } from '@/lib/page-title';

export const Route = createFileRoute('/_app/settings')({
  head: titleHead('Settings'),
  component: SettingsPage,
});
