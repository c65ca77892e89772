import { createFileRoute } from '@tanstack/react-router';
import { titleHead } from '@/lib/page-title';

export const Route = createFileRoute('/_app/track/$trackId')({
  head: titleHead('Track'),
  component: () => null,
});
