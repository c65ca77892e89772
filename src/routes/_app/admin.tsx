import { createFileRoute } from '@tanstack/react-router';
import { AdminPage } from '@/features/admin/admin-page';
import { titleHead } from '@/lib/page-title';

export const Route = createFileRoute('/_app/admin')({
  head: titleHead('Administration'),
  component: AdminPage,
});
