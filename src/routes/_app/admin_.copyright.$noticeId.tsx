import { createFileRoute } from '@tanstack/react-router';
import { AdminNoticePage } from '@/features/copyright';
import { titleHead } from '@/lib/page-title';

export const Route = createFileRoute('/_app/admin_/copyright/$noticeId')({
  head: titleHead('Copyright notice'),
  component: AdminNoticeRoute,
});

function AdminNoticeRoute() {
  const { noticeId } = Route.useParams();
  return <AdminNoticePage noticeId={noticeId} />;
}
