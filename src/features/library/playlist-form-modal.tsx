import { Modal } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { toast } from '@/components/toast';
import { getRepositories, usePlaylists } from '@/data';
import { useCurrentUserId } from '@/features/catalogue';
import { PlaylistForm, type PlaylistFormValues } from './playlist-form';
import type { LibrarySearch } from './library-search';

export interface PlaylistFormModalProps {
  search: LibrarySearch;
  /** Clears create/edit from the URL (closing the form). */
  onClose: () => void;
}

/**
 * ?create=playlist opens the create form; ?edit={id} opens the edit form of one of the user's
 * playlists (linked from the playlist page). Saving an edit goes back to the playlist.
 */
export function PlaylistFormModal({ search, onClose }: PlaylistFormModalProps) {
  const navigate = useNavigate();
  const userId = useCurrentUserId();
  const playlists = usePlaylists(userId);
  const editing = search.edit ? playlists.find((p) => p.id === search.edit) : undefined;
  const creating = search.create === 'playlist' && !editing;

  const create = async ({ name, description }: PlaylistFormValues) => {
    try {
      const playlist = await getRepositories().playlists.create(name, description);
      toast.success(`Created ${playlist.name}`);
      void navigate({ to: '/library', search: { tab: 'playlists' }, replace: true });
    } catch (error) {
      console.error('Failed to create playlist', error);
      toast.error('Failed to create playlist');
    }
  };

  const update = async (id: string, values: PlaylistFormValues) => {
    try {
      await getRepositories().playlists.update(id, values);
      toast.success('Playlist updated');
      void navigate({ to: '/playlist/$id', params: { id } });
    } catch (error) {
      console.error('Failed to update playlist', error);
      toast.error('Failed to update playlist');
    }
  };

  return (
    <Modal
      opened={creating || Boolean(editing)}
      onClose={onClose}
      title={editing ? 'Edit details' : 'New playlist'}
      centered
      radius="md"
      size="md"
    >
      {editing ? (
        <PlaylistForm
          key={editing.id}
          initial={{ name: editing.name, description: editing.description }}
          submitLabel="Save Changes"
          onSubmit={(values) => update(editing.id, values)}
          onCancel={onClose}
        />
      ) : (
        <PlaylistForm submitLabel="Create Playlist" onSubmit={create} onCancel={onClose} />
      )}
    </Modal>
  );
}
