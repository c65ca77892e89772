import { createFileRoute } from '@tanstack/react-router';
import { NotBuiltYet } from '@/components/not-built-yet';
import { titleHead } from '@/lib/page-title';

export const Route = createFileRoute('/_app/upload')({
  head: titleHead('Upload'),
  component: () => <NotBuiltYet title="Upload" what="Uploading tracks" />,
});
