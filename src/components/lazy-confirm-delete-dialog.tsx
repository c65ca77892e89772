/**
 * The delete confirmation for pages that show it rarely: its code (Mantine's Modal, with
 * ScrollArea and @floating-ui) loads on the first open, not with the page (docs/architecture.md).
 */

import type { ConfirmDeleteDialogProps } from './delete-confirmation';
import { LazyOverlay } from './lazy-overlay';
import { lazyChunk } from '@/lib/lazy-chunk';

const ConfirmDeleteDialog = lazyChunk(() =>
  import('./confirm-delete-dialog').then((m) => ({ default: m.ConfirmDeleteDialog })),
);

export { deleteConfirmation } from './delete-confirmation';

export function LazyConfirmDeleteDialog(props: ConfirmDeleteDialogProps) {
  return (
    <LazyOverlay opened={props.opened}>
      <ConfirmDeleteDialog {...props} />
    </LazyOverlay>
  );
}
