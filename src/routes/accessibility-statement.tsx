import { createFileRoute } from '@tanstack/react-router';
import { accessibilityStatement } from '@/features/legal/documents/accessibility-statement';
import { LegalPage } from '@/features/legal/legal-page';
import { titleHead } from '@/lib/page-title';

export const Route = createFileRoute('/accessibility-statement')({
  head: titleHead('Accessibility Statement'),
  component: () => <LegalPage doc={accessibilityStatement} />,
});
