import { createFileRoute } from '@tanstack/react-router';
import { LyricsSection } from '@/features/lyrics';
import { TrackPage } from '@/features/track';
import { titleHead } from '@/lib/page-title';

export const Route = createFileRoute('/_app/track/$trackId')({
  head: titleHead('Track'),
  component: TrackRoute,
});

/** The track page, with the lyrics feature in its lyrics slot. */
function TrackRoute() {
  const { trackId } = Route.useParams();
  return (
    <TrackPage
      trackId={trackId}
      lyrics={(track) => <LyricsSection key={track.id} track={track} />}
    />
  );
}
