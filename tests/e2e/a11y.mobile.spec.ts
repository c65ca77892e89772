/**
 * Accessibility at 375 px (issue 34): the same run as a11y.spec.ts in the mobile project (Pixel 7
 * at 375 px: the phone layouts, scroll regions and menus).
 */
import { expect, test } from './support/test';
import { a11yFixtures, axeEveryRoute } from './support/axe';

for (const role of ['visitor', 'listener', 'artist', 'admin'] as const) {
  test(`axe, 375 px: ${role} pages have no WCAG 2.1 A/AA violation`, async ({ page }) => {
    test.setTimeout(180_000);
    const violations = await axeEveryRoute(page, role, await a11yFixtures(page.request));
    expect(violations).toEqual([]);
  });
}
