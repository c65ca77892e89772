import { Container } from '@mantine/core';
import { createFileRoute } from '@tanstack/react-router';
import { useState } from 'react';
import { CounterNoticePage } from '@/features/copyright';
import { currentLinkToken } from '@/lib/link-token';
import { titleHead } from '@/lib/page-title';

/** A removal e-mail's counter-notice link: public (a banned uploader cannot sign in). */
export const Route = createFileRoute('/copyright/counter/$noticeId/link')({
  head: titleHead('Counter-notice'),
  component: CounterLinkRoute,
});

function CounterLinkRoute() {
  const { noticeId } = Route.useParams();
  const [token] = useState(currentLinkToken);
  return (
    <Container size="md" py={{ base: 'md', sm: 'xl' }} px={{ base: 'sm', sm: 'lg' }}>
      <CounterNoticePage noticeId={noticeId} token={token ?? '0'} />
    </Container>
  );
}
