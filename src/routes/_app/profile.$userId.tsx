import { createFileRoute } from '@tanstack/react-router';
import { titleHead } from '@/lib/page-title';

export const Route = createFileRoute('/_app/profile/$userId')({
  head: titleHead('Profile'),
  component: () => null,
});
