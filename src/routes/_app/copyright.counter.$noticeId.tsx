import { createFileRoute } from '@tanstack/react-router';
import { CounterNoticePage } from '@/features/copyright';
import { titleHead } from '@/lib/page-title';

export const Route = createFileRoute('/_app/copyright/counter/$noticeId')({
  head: titleHead('Counter-notice'),
  component: CounterRoute,
});

function CounterRoute() {
  const { noticeId } = Route.useParams();
  return <CounterNoticePage noticeId={noticeId} />;
}
