import { createFileRoute } from '@tanstack/react-router';
import { termsOfService } from '@/features/legal/documents/terms-of-service';
import { LegalPage } from '@/features/legal/legal-page';
import { titleHead } from '@/lib/page-title';

export const Route = createFileRoute('/terms-of-service')({
  head: titleHead('Terms of Service'),
  component: () => <LegalPage doc={termsOfService} />,
});
