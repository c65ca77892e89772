import { createTheme, type MantineColorsTuple } from '@mantine/core';

/** Soundloft's one accent: a warm ember orange, readable with dark text (autoContrast). */
const ember: MantineColorsTuple = [
  '#fff0eb',
  '#ffddd1',
  '#ffbba2',
  '#ff966f',
  '#ff7745',
  '#ff642b',
  '#ff5a1c',
  '#e4490d',
  '#cb3f08',
  '#b13200',
];

/** Neutral surfaces, slightly blue-black like a dim studio. dark[7] is the page background. */
const dark: MantineColorsTuple = [
  '#e9e9ef',
  '#b9b9c6',
  '#9a9aab',
  '#6f6f82',
  '#3d3d4d',
  '#2a2a36',
  '#1c1c25',
  '#0d0d12',
  '#09090d',
  '#050507',
];

const fontFamily =
  "'Inter Variable', Inter, system-ui, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";

const PAGE_CONTROL_LABELS = {
  first: 'First page',
  previous: 'Previous page',
  next: 'Next page',
  last: 'Last page',
} as const;

export const theme = createTheme({
  primaryColor: 'ember',
  primaryShade: 5,
  autoContrast: true,
  luminanceThreshold: 0.3,
  colors: { ember, dark },
  fontFamily,
  headings: { fontFamily, fontWeight: '750' },
  defaultRadius: 'md',
  cursorType: 'pointer',
  focusRing: 'auto',
  components: {
    // A dialog's close button is an icon: it needs a name (axe 'button-name'). A dialog that
    // says more ('Close queue') passes its own closeButtonProps.
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close dialog' } } },
    Drawer: { defaultProps: { closeButtonProps: { 'aria-label': 'Close dialog' } } },
    // Mantine puts a focusable role="presentation" placeholder first in every menu, which a menu
    // may not own (axe 'aria-required-children'). Without it the dropdown itself takes the focus
    // on open and the arrow keys move to the items, as before.
    Menu: { defaultProps: { withInitialFocusPlaceholder: false } },
    // Mantine's previous/next/first/last page buttons are icons without a name (axe
    // 'button-name'): every Pagination gets one. A plain object, not Pagination.extend(), so the
    // component is not pulled into the entry chunk.
    Pagination: {
      defaultProps: {
        getControlProps: (control: 'first' | 'previous' | 'last' | 'next') => ({
          'aria-label': PAGE_CONTROL_LABELS[control],
        }),
      },
    },
  },
});
