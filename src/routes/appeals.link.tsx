import { createFileRoute } from '@tanstack/react-router';
import { useState } from 'react';
import { AppealByLinkPage } from '@/features/appeals/appeal-by-link-page';
import { currentLinkToken } from '@/lib/link-token';
import { titleHead } from '@/lib/page-title';

/** A ban e-mail's appeal link: public (a banned account cannot sign in). */
export const Route = createFileRoute('/appeals/link')({
  head: titleHead('Appeal a moderation decision'),
  component: AppealLinkRoute,
});

function AppealLinkRoute() {
  const [token] = useState(currentLinkToken);
  return <AppealByLinkPage token={token} />;
}
