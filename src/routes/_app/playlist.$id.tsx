import { createFileRoute } from '@tanstack/react-router';
import { PlaylistPage } from '@/features/playlist/playlist-page';
import { titleHead } from '@/lib/page-title';

export const Route = createFileRoute('/_app/playlist/$id')({
  head: titleHead('Playlist'),
  component: PlaylistRoute,
});

function PlaylistRoute() {
  const { id } = Route.useParams();
  return <PlaylistPage key={id} id={id} />;
}
