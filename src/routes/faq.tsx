import { createFileRoute } from '@tanstack/react-router';
import { FaqPage } from '@/features/faq/faq-page';
import { titleHead } from '@/lib/page-title';

export const Route = createFileRoute('/faq')({
  head: titleHead('FAQ'),
  component: FaqPage,
});
