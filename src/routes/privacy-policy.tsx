import { createFileRoute } from '@tanstack/react-router';
import { privacyPolicy } from '@/features/legal/documents/privacy-policy';
import { LegalPage } from '@/features/legal/legal-page';
import { titleHead } from '@/lib/page-title';

export const Route = createFileRoute('/privacy-policy')({
  head: titleHead('Privacy Policy'),
  component: () => <LegalPage doc={privacyPolicy} />,
});
