import { createFileRoute } from '@tanstack/react-router';
import { titleHead } from '@/lib/page-title';

export const Route = createFileRoute('/_app/artist/$artistName')({
  head: titleHead('Artist'),
  component: () => null,
});
