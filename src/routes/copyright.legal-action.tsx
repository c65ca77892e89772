import { createFileRoute } from '@tanstack/react-router';
import { LegalActionPage } from '@/features/copyright';
import { titleHead } from '@/lib/page-title';

export const Route = createFileRoute('/copyright/legal-action')({
  head: titleHead('Record a court action'),
  component: LegalActionPage,
});
