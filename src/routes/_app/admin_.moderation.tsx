import { createFileRoute } from '@tanstack/react-router';
import { ModerationQueuePage } from '@/features/admin/moderation-queue-page';
import { titleHead } from '@/lib/page-title';

export const Route = createFileRoute('/_app/admin_/moderation')({
  head: titleHead('Moderation queue'),
  component: ModerationQueuePage,
});
