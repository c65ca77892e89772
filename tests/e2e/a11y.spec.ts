/**
 * Accessibility at 1440 px (issue 34): axe-core's WCAG 2.1 A/AA rules on every route, zero
 * violations. The 375 px run is a11y.mobile.spec.ts; the route list is tests/a11y-routes.ts.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from './support/test';
import { A11Y_ROUTES, routeTreePaths } from '../a11y-routes';
import { a11yFixtures, axeEveryRoute } from './support/axe';

test('every route of the route tree has an axe run, and only those', () => {
  const tree = routeTreePaths(readFileSync('src/routeTree.gen.ts', 'utf8'));
  const listed = A11Y_ROUTES.map((r) => r.route);
  expect(tree.length).toBeGreaterThan(20);
  expect(
    tree.filter((p) => !listed.includes(p)),
    'routes without an axe run: add them to tests/a11y-routes.ts (docs/screens.md)',
  ).toEqual([]);
  expect(
    listed.filter((p) => !tree.includes(p)),
    'listed routes the tree does not have',
  ).toEqual([]);
  expect(new Set(listed).size).toBe(listed.length);
});

for (const role of ['visitor', 'listener', 'artist', 'admin'] as const) {
  test(`axe, 1440 px: ${role} pages have no WCAG 2.1 A/AA violation`, async ({ page }) => {
    test.setTimeout(180_000);
    const violations = await axeEveryRoute(page, role, await a11yFixtures(page.request));
    expect(violations).toEqual([]);
  });
}
