import { Text, VisuallyHidden } from '@mantine/core';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { toast } from '@/components/toast';
import { getRepositories, type Playlist, type Track } from '@/data';
import { TrackList } from '@/features/catalogue';
import { PlaylistEmpty } from './playlist-empty';
import {
  afterMove,
  applyOrder,
  isBehind,
  keyOf,
  moveAnnouncement,
  moveItem,
  type PendingOrder,
} from './reorder';
import { ReorderHandle } from './reorder-handle';
import { useDragReorder } from './use-drag-reorder';

export interface PlaylistTracksProps {
  playlist: Playlist;
  tracks: readonly Track[];
  isOwner: boolean;
}

/**
 * The playlist's tracks. The creator may remove a track (row menu) and reorder by dragging a
 * row's handle or with the arrow keys on it; each move is announced and saved through
 * playlists.reorder. Until the mirror reflects a move, the list shows the new order.
 */
export function PlaylistTracks({ playlist, tracks, isOwner }: PlaylistTracksProps) {
  const helpId = useId();
  const [pending, setPending] = useState<PendingOrder | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const focusAfter = useRef<string | null>(null);

  const liveKey = keyOf(tracks.map((t) => t.id));
  const ordered = useMemo(
    () => (isBehind(pending, liveKey) ? applyOrder(tracks, pending.order) : tracks),
    [pending, liveKey, tracks],
  );

  const commit = (from: number, to: number) => {
    const moved = ordered[from];
    if (!moved || from === to) return;
    const target = Math.max(0, Math.min(ordered.length - 1, to));
    const order = moveItem(
      ordered.map((t) => t.id),
      from,
      target,
    );
    setPending(afterMove(pending, liveKey, order));
    setAnnouncement(moveAnnouncement(moved.title, target, ordered.length));
    getRepositories()
      .playlists.reorder(playlist.id, order)
      .catch((error: unknown) => {
        console.error('Failed to update playlist', error);
        setPending(null);
        toast.error('Failed to update playlist');
      });
  };

  const { drag, start } = useDragReorder(commit);
  const shown = drag ? moveItem(ordered, drag.from, drag.over) : ordered;
  const shownKey = keyOf(shown.map((t) => t.id));

  // Keyboard moves re-render the rows; keep the focus on the moved track's handle.
  useEffect(() => {
    const id = focusAfter.current;
    if (!id) return;
    focusAfter.current = null;
    document.querySelector<HTMLElement>(`[data-reorder-handle="${CSS.escape(id)}"]`)?.focus();
  }, [shownKey]);

  const remove = async (track: Track) => {
    try {
      await getRepositories().playlists.removeTrack(playlist.id, track.id);
      toast.success(`Removed ${track.title} from ${playlist.name}`);
    } catch (error) {
      console.error('Failed to update playlist', error);
      toast.error('Failed to update playlist');
    }
  };

  return (
    <>
      <TrackList
        tracks={shown}
        label={`Tracks of ${playlist.name}`}
        empty={<PlaylistEmpty isOwner={isOwner} />}
        onRemove={isOwner ? (track) => void remove(track) : undefined}
        removeLabel="Remove from playlist"
        renderExtra={
          isOwner && shown.length > 1
            ? (track, index) => (
                <ReorderHandle
                  title={track.title}
                  trackId={track.id}
                  active={drag !== null && drag.over === index}
                  describedBy={helpId}
                  onPointerDown={(e) => start(e, index)}
                  onMove={(step) => {
                    const to =
                      step === 'first' ? 0 : step === 'last' ? shown.length - 1 : index + step;
                    if (to < 0 || to >= shown.length || to === index) return;
                    focusAfter.current = track.id;
                    commit(index, to);
                  }}
                />
              )
            : undefined
        }
      />
      {isOwner ? (
        <VisuallyHidden>
          <Text id={helpId}>
            Drag to reorder, or press the up and down arrow keys to move the track.
          </Text>
          <div role="status" aria-live="polite" aria-atomic="true">
            {announcement}
          </div>
        </VisuallyHidden>
      ) : null}
    </>
  );
}
