import { Suspense, useState } from 'react';
import { MenuButton, type TrackOptionsMenuProps } from './track-options-button';
import { lazyChunk } from '@/lib/lazy-chunk';

export type { TrackOptionsMenuProps } from './track-options-button';

const loadOpenableMenu = () => import('./track-options-menu-open');

/** Fetches the menu's code ahead (a list does it when the page is idle). */
export function preloadTrackOptionsMenu(): void {
  void loadOpenableMenu();
}
const OpenableMenu = lazyChunk(() => loadOpenableMenu().then((m) => ({ default: m.OpenableMenu })));

/**
 * The row options menu: play next, add to queue, add to playlist, go to artist, remove.
 *
 * A list shows one per row, and a Mantine Menu costs a popover, its floating position and a
 * layout effect even while closed: a row shows a plain button until it is first used, and the
 * menu mounts already open on that click (or Enter/Space). Focus moves into the menu as with any
 * Mantine menu and returns to the button when it closes (docs/architecture.md, "Render cost").
 * The menu's code (Menu, its floating position, the report dialog) is not part of the list's
 * first load either: it is fetched when the page is idle, or when a row's button is hovered,
 * focused or clicked before that (docs/architecture.md, "Watch the entry chunk").
 */
export function TrackOptionsMenu(props: TrackOptionsMenuProps) {
  const [used, setUsed] = useState(false);
  const title = props.track.title;
  if (used) {
    return (
      <Suspense fallback={<MenuButton title={title} busy />}>
        <OpenableMenu {...props} />
      </Suspense>
    );
  }
  return (
    <MenuButton
      title={title}
      onPointerEnter={preloadTrackOptionsMenu}
      onFocus={preloadTrackOptionsMenu}
      onClick={(e) => {
        e.stopPropagation();
        setUsed(true);
      }}
    />
  );
}
