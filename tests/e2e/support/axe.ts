/**
 * The accessibility run (issue 34): axe-core's WCAG 2.1 A and AA rules on every route of
 * tests/a11y-routes.ts, one signed-in page per role, the routes opened in sequence. The desktop
 * (1440 px) and mobile (375 px) specs both call `axeEveryRoute`. A test fails with every
 * violation of its role's pages listed (rule, impact, page, elements), not at the first one.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { A11Y_ROUTES, a11yPath, type A11yFixtures, type A11yRole } from '../../a11y-routes';
import { demoTracks, demoUserId, seedPlaylist } from './playlist-seed';
import { DEMO, serverRows, signIn } from './session';

export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * WCAG 2.1 rules axe 4.13 still marks experimental (off by default), on here: axe 4.14 runs
 * 'label-content-name-mismatch' (2.5.3, label in name) by default, and an outside check found it.
 */
const EXPERIMENTAL_RULES = { 'label-content-name-mismatch': { enabled: true } };

/** The demo account each signed-in role uses. */
const ACCOUNT: Record<Exclude<A11yRole, 'visitor'>, string> = {
  listener: DEMO.premium,
  artist: DEMO.artist,
  admin: DEMO.admin,
};

export async function a11yFixtures(request: APIRequestContext): Promise<A11yFixtures> {
  const [track] = await demoTracks(request, 1);
  const [row] = await serverRows<{ artist: string }>(
    request,
    `tracks?select=artist&id=eq.${track!.id}`,
  );
  const listener = await demoUserId(request, DEMO.premium);
  const playlistId = await seedPlaylist(request, listener, 'Accessibility check', [track!.id]);
  return {
    trackId: track!.id,
    trackTitle: track!.title,
    artistName: row!.artist,
    playlistId,
    otherUserId: await demoUserId(request, DEMO.artist),
  };
}

/** axe's findings on the page as it is now, one line per rule and element. */
export async function axeViolations(page: Page, label: string): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page })
    .options({ rules: EXPERIMENTAL_RULES })
    .withTags(WCAG_TAGS)
    .analyze();
  return violations.flatMap((v) =>
    v.nodes.map(
      (n) =>
        `${label}: ${v.id} (${v.impact ?? '?'}) ${v.help}: ${n.target.join(' ')} ${n.html.slice(0, 160)} | ${(n.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 300)}`,
    ),
  );
}

/** Opens `path` and waits until React has rendered it and its content (not a loader) shows. */
async function openSettled(page: Page, path: string, ready?: string | RegExp): Promise<void> {
  await page.goto(path);
  await expect(page.locator('html[data-app-ready="true"]')).toHaveCount(1, { timeout: 30_000 });
  const content = ready
    ? page.getByText(ready).first()
    : page.getByRole('heading', { level: 1 }).first();
  await expect(content).toBeVisible({ timeout: 30_000 });
  // Nothing still loading: Mantine's loaders and skeletons, busy regions.
  await expect(
    page.locator('.mantine-Loader-root:visible, [aria-busy="true"]:visible'),
  ).toHaveCount(0, { timeout: 30_000 });
}

/** Signs `role` in on `page` (if not a visitor), opens each of its routes and runs axe on it. */
export async function axeEveryRoute(
  page: Page,
  role: A11yRole,
  fixtures: A11yFixtures,
): Promise<string[]> {
  if (role !== 'visitor') await signIn(page, ACCOUNT[role]);
  const found: string[] = [];
  for (const route of A11Y_ROUTES.filter((r) => r.role === role)) {
    const path = a11yPath(route, fixtures);
    await openSettled(page, path, route.ready);
    found.push(...(await axeViolations(page, path)));
    const size = (page.viewportSize()?.width ?? 1440) < 768 ? 'mobile' : 'desktop';
    let fresh = true;
    for (const state of route.states ?? []) {
      if (state.only && state.only !== size) continue;
      // Each state from the page as it opens, not with the previous state's dialog still up.
      if (!fresh) await openSettled(page, path, route.ready);
      fresh = false;
      await state.open(page, fixtures);
      found.push(...(await axeViolations(page, `${path} (${state.name} open)`)));
    }
  }
  return found;
}
