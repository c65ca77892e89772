/**
 * Dialogs, drawers and menus that most visits never open: their code (Mantine's Modal, Drawer,
 * ScrollArea and @floating-ui) loads on first open instead of with the page. Pair it with
 * `React.lazy`: LazyOverlay mounts its children from the first open on (so closing still
 * animates) and renders nothing until then.
 */
import { Suspense, useState, type ReactNode } from 'react';

export function LazyOverlay({ opened, children }: { opened: boolean; children: ReactNode }) {
  const [everOpened, setEverOpened] = useState(opened);
  if (opened && !everOpened) setEverOpened(true);
  if (!everOpened) return null;
  return <Suspense fallback={null}>{children}</Suspense>;
}
