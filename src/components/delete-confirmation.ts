/**
 * What both delete dialogs share: the eager one (confirm-delete-dialog.tsx) and the one whose
 * code loads on first open (lazy-confirm-delete-dialog.tsx). Here, not in either, so that neither
 * imports the other back.
 */
export interface ConfirmDeleteDialogProps {
  title: string;
  message: string;
  opened: boolean;
  onClose: () => void;
  onConfirm: () => Promise<void>;
}

/** Spec 2's confirmation wording. */
export const deleteConfirmation = (name: string) =>
  `Are you sure you want to delete "${name}"? This cannot be undone.`;
