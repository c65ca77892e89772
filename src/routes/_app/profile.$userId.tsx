import { createFileRoute } from '@tanstack/react-router';
import { ProfilePage } from '@/features/profile';
import { titleHead } from '@/lib/page-title';

export const Route = createFileRoute('/_app/profile/$userId')({
  head: titleHead('Profile'),
  component: ProfileRoute,
});

function ProfileRoute() {
  const { userId } = Route.useParams();
  return <ProfilePage userId={userId} />;
}
