import { createFileRoute } from '@tanstack/react-router';
import { ChangelogPage } from '@/features/changelog/changelog-page';
import { titleHead } from '@/lib/page-title';

export const Route = createFileRoute('/changelog')({
  head: titleHead('Platform Updates'),
  component: ChangelogPage,
});
