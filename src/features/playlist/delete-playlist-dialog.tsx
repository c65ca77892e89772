import { ConfirmDeleteDialog, deleteConfirmation } from '@/components/confirm-delete-dialog';

export { deleteConfirmation } from '@/components/confirm-delete-dialog';

export interface DeletePlaylistDialogProps {
  name: string;
  opened: boolean;
  onClose: () => void;
  onConfirm: () => Promise<void>;
}

/** Spec 2's confirmation, verbatim. */
export function DeletePlaylistDialog({ name, ...props }: DeletePlaylistDialogProps) {
  return (
    <ConfirmDeleteDialog title="Delete playlist" message={deleteConfirmation(name)} {...props} />
  );
}
