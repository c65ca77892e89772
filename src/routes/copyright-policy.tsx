import { createFileRoute } from '@tanstack/react-router';
import { copyrightPolicy } from '@/features/legal/documents/copyright-policy';
import { LegalPage } from '@/features/legal/legal-page';
import { titleHead } from '@/lib/page-title';

export const Route = createFileRoute('/copyright-policy')({
  head: titleHead('Copyright Policy'),
  component: () => <LegalPage doc={copyrightPolicy} />,
});
