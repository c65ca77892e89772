import type { ScrollAreaProps } from '@mantine/core';

/**
 * `scrollAreaProps` for a `Table.ScrollContainer` that may scroll sideways on a phone: its
 * viewport is a named tab stop, so a keyboard can scroll it too (WCAG 2.1.1; axe
 * 'scrollable-region-focusable', seen on /admin at 375 px once its tables had rows).
 */
export function keyboardScrollable(label: string): ScrollAreaProps {
  return { viewportProps: { tabIndex: 0, role: 'region', 'aria-label': label } };
}
