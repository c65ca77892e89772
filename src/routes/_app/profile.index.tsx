import { createFileRoute } from '@tanstack/react-router';
import { ProfilePage } from '@/features/profile';
import { titleHead } from '@/lib/page-title';

export const Route = createFileRoute('/_app/profile/')({
  head: titleHead('Profile'),
  component: () => <ProfilePage />,
});
