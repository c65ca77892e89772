import { createFileRoute } from '@tanstack/react-router';
import { musicLicensing } from '@/features/legal/documents/music-licensing';
import { LegalPage } from '@/features/legal/legal-page';
import { titleHead } from '@/lib/page-title';

export const Route = createFileRoute('/music-licensing')({
  head: titleHead('Music Licensing'),
  component: () => <LegalPage doc={musicLicensing} />,
});
