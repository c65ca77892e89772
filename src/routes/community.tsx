import { createFileRoute } from '@tanstack/react-router';
import { community } from '@/features/legal/documents/community';
import { LegalPage } from '@/features/legal/legal-page';
import { titleHead } from '@/lib/page-title';

export const Route = createFileRoute('/community')({
  head: titleHead('Community Guidelines'),
  component: () => <LegalPage doc={community} />,
});
