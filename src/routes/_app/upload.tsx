import { createFileRoute } from '@tanstack/react-router';
import { UploadPage } from '@/features/upload/upload-page';
import { titleHead } from '@/lib/page-title';

export const Route = createFileRoute('/_app/upload')({
  head: titleHead('Upload'),
  component: UploadPage,
});
