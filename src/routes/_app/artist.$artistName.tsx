import { createFileRoute } from '@tanstack/react-router';
import { ArtistPage } from '@/features/artist';
import { pageTitle } from '@/lib/page-title';

export const Route = createFileRoute('/_app/artist/$artistName')({
  head: ({ params }) => ({ meta: [{ title: pageTitle(params.artistName) }] }),
  component: ArtistRoute,
});

function ArtistRoute() {
  const { artistName } = Route.useParams();
  return <ArtistPage key={artistName} artistName={artistName} />;
}
