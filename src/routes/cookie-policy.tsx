import { createFileRoute } from '@tanstack/react-router';
import { cookiePolicy } from '@/features/legal/documents/cookie-policy';
import { LegalPage } from '@/features/legal/legal-page';
import { titleHead } from '@/lib/page-title';

export const Route = createFileRoute('/cookie-policy')({
  head: titleHead('Cookie Policy'),
  component: () => <LegalPage doc={cookiePolicy} />,
});
