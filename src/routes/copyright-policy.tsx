import { Button, Group } from '@mantine/core';
import { Link, createFileRoute } from '@tanstack/react-router';
import { copyrightPolicy } from '@/features/legal/documents/copyright-policy';
import { LegalPage } from '@/features/legal/legal-page';
import { titleHead } from '@/lib/page-title';

export const Route = createFileRoute('/copyright-policy')({
  head: titleHead('Copyright Policy'),
  component: () => (
    <LegalPage doc={copyrightPolicy}>
      <Group gap="sm">
        <Button component={Link} to="/copyright/notice">
          Send a copyright notice
        </Button>
        <Button component={Link} to="/copyright/business-days" variant="default">
          Business days and holidays
        </Button>
      </Group>
    </LegalPage>
  ),
});
