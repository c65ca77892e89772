/**
 * Every route of the app, with who visits it in the accessibility run (tests/e2e/a11y.spec.ts
 * and a11y.mobile.spec.ts: axe-core, WCAG 2.1 A/AA, at 1440 and 375 px). The run fails when the
 * route tree (src/routeTree.gen.ts) has a route that is not listed here, or the list names one
 * the tree no longer has. docs/screens.md, "Accessibility checks", says how to add one.
 */

import type { Page } from '@playwright/test';

/** Who opens the page: signed out, or one of the seeded demo accounts. */
export type A11yRole = 'visitor' | 'listener' | 'artist' | 'admin';

/** Ids the parameterised routes are opened with (made once per run from the demo catalogue). */
export interface A11yFixtures {
  trackId: string;
  /** Its title (the row's 'More options for …' button). */
  trackTitle: string;
  artistName: string;
  /** A playlist of the demo listener. */
  playlistId: string;
  /** Another user's profile (the demo artist's). */
  otherUserId: string;
}

/**
 * A state of the page axe checks too, after the page itself: a dialog or menu opened. `open`
 * leaves it open and waits for it; the page is opened afresh for the next route.
 */
export interface A11yState {
  name: string;
  /** Only at this size (a phone menu exists at 375 px only). */
  only?: 'desktop' | 'mobile';
  open: (page: Page, f: A11yFixtures) => Promise<void>;
}

export interface A11yRoute {
  /** The route's full path as the route tree spells it ('/track/$trackId', '/profile/'). */
  route: string;
  role: A11yRole;
  /** The address to open, when it is not `route` itself. */
  path?: string | ((f: A11yFixtures) => string);
  /**
   * Text that shows once the page has its content (not its loader); its h1 when omitted. Use a
   * string the page shows only when loaded, so axe checks the page a user reads.
   */
  ready?: string | RegExp;
  /** Dialogs and menus of the page, each checked open. */
  states?: A11yState[];
}

/** Presses the button named `button` and waits until `role` named `name` shows. */
const opens =
  (button: string, role: 'dialog' | 'menu', name?: string): A11yState['open'] =>
  async (page) => {
    await page.getByRole('button', { name: button }).first().click();
    await page
      .getByRole(role, name ? { name } : {})
      .first()
      .waitFor({ state: 'visible' });
  };

/** Types `text` in the top bar's search box and waits for the dropdown's first result (issue 33). */
const typesInSearch =
  (text: string): A11yState['open'] =>
  async (page) => {
    await page.getByRole('combobox', { name: 'Search' }).click();
    await page.keyboard.type(text);
    await page
      .getByRole('listbox')
      .getByRole('option')
      .first()
      .waitFor({ state: 'visible', timeout: 60_000 });
  };

export const A11Y_ROUTES: A11yRoute[] = [
  // Public pages (prerendered).
  {
    route: '/',
    role: 'visitor',
    states: [{ name: 'phone menu', only: 'mobile', open: opens('Open menu', 'dialog') }],
  },
  { route: '/comparison', role: 'visitor' },
  { route: '/faq', role: 'visitor' },
  { route: '/changelog', role: 'visitor' },
  { route: '/payment-failed', role: 'visitor' },
  { route: '/payment-approved', role: 'visitor' },
  { route: '/terms-of-service', role: 'visitor' },
  { route: '/privacy-policy', role: 'visitor' },
  { route: '/copyright-policy', role: 'visitor' },
  { route: '/community', role: 'visitor' },
  { route: '/cookie-policy', role: 'visitor' },
  { route: '/music-licensing', role: 'visitor' },
  { route: '/accessibility-statement', role: 'visitor' },
  { route: '/copyright/notice', role: 'visitor' },
  { route: '/copyright/business-days', role: 'visitor', ready: /Years covered/ },
  // Without a token in the fragment the page says it opens from the e-mail: axe reads that state
  // (the form itself: copyright-notice.spec.ts opens it from the claimant's e-mail).
  { route: '/copyright/legal-action', role: 'visitor', ready: /opens from the link/ },
  // Auth pages.
  { route: '/login', role: 'visitor' },
  { route: '/signup', role: 'visitor' },
  { route: '/forgot-password', role: 'visitor' },
  // Without a recovery link the page says the link is invalid: that state is what axe sees.
  { route: '/reset-password', role: 'visitor' },
  { route: '/verify-email/', role: 'visitor', path: '/verify-email' },
  { route: '/verify-email/success', role: 'visitor' },
  // Signed-in listener (the demo premium account: no house ads opening at random moments).
  {
    route: '/home',
    role: 'listener',
    states: [
      { name: 'menu', only: 'mobile', open: opens('Open menu', 'dialog', 'Menu') },
      { name: 'search dropdown', open: typesInSearch('harbor lites') },
    ],
  },
  { route: '/explore', role: 'listener' },
  {
    route: '/library',
    role: 'listener',
    states: [{ name: 'New playlist', open: opens('New playlist', 'dialog', 'New playlist') }],
  },
  { route: '/subscription', role: 'listener' },
  { route: '/settings', role: 'listener' },
  { route: '/settings/privacy', role: 'listener' },
  { route: '/appeals', role: 'listener' },
  // The demo has no notice: axe reads the page's "no such notice" state (the full pages are
  // opened by copyright-notice.spec.ts).
  {
    route: '/copyright/counter/$noticeId',
    role: 'listener',
    path: '/copyright/counter/00000000-0000-4000-8000-000000000000',
    ready: /./,
  },
  // Opened from a mailed link without signing in; without a token they show why (the pages with
  // a real token are opened by moderation-ladder and copyright-notice specs).
  { route: '/appeals/link', role: 'visitor', ready: 'This link cannot be used' },
  {
    route: '/copyright/counter/$noticeId/link',
    role: 'visitor',
    path: '/copyright/counter/00000000-0000-4000-8000-000000000000/link',
    ready: /./,
  },
  { route: '/profile/', role: 'listener', path: '/profile' },
  { route: '/profile/$userId', role: 'listener', path: (f) => `/profile/${f.otherUserId}` },
  { route: '/track/$trackId', role: 'listener', path: (f) => `/track/${f.trackId}` },
  {
    route: '/artist/$artistName',
    role: 'listener',
    path: (f) => `/artist/${encodeURIComponent(f.artistName)}`,
  },
  {
    route: '/playlist/$id',
    role: 'listener',
    path: (f) => `/playlist/${f.playlistId}`,
    states: [
      {
        name: 'row menu',
        open: (page, f) => opens(`More options for ${f.trackTitle}`, 'menu')(page, f),
      },
    ],
  },
  // Artist (Studio).
  { route: '/upload', role: 'artist' },
  { route: '/payouts', role: 'artist' },
  { route: '/insights', role: 'artist' },
  // Admin.
  { route: '/admin', role: 'admin' },
  { route: '/admin/moderation', role: 'admin' },
  {
    route: '/admin/copyright/$noticeId',
    role: 'admin',
    path: '/admin/copyright/00000000-0000-4000-8000-000000000000',
    ready: /./,
  },
];

/** `route`'s address with its parameters filled in. */
export function a11yPath(route: A11yRoute, fixtures: A11yFixtures): string {
  if (typeof route.path === 'function') return route.path(fixtures);
  return route.path ?? route.route;
}

/** The full paths of the route tree, read from the generated file (no app code is loaded). */
export function routeTreePaths(generated: string): string[] {
  const union = /fullPaths:\s*((?:\|\s*'[^']*'\s*)+)/.exec(generated)?.[1];
  if (!union) throw new Error('routeTree.gen.ts: no fullPaths union found');
  return [...union.matchAll(/'([^']*)'/g)].map((m) => m[1]!);
}
