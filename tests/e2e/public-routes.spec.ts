import { expect, test } from './support/test';
import { PUBLIC_ROUTES } from '../public-routes';
import { gotoHydrated } from './support/hydrated';

for (const route of PUBLIC_ROUTES) {
  test(`${route.path} renders its heading, title, landmarks and key strings`, async ({ page }) => {
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (msg) => {
      if (msg.type() === 'error' || msg.type() === 'warning') problems.push(msg.text());
    });
    await page.goto(route.path);
    await expect(page.getByRole('heading', { level: 1, name: route.heading })).toBeVisible();
    await expect(page.locator('h1')).toHaveCount(1);
    await expect(page).toHaveTitle(route.title);
    await expect(page.getByRole('banner')).toBeVisible();
    await expect(page.getByRole('main')).toBeVisible();
    await expect(page.getByRole('contentinfo')).toBeVisible();
    for (const text of route.strings) {
      await expect(page.getByText(text, { exact: false }).first()).toBeVisible();
    }
    // A prerendered page hydrates in place: no mismatch warning, no error.
    expect(problems).toEqual([]);
  });
}

test('legal pages: Back to Top scrolls up and Back to Home returns to the landing page', async ({
  page,
}) => {
  await page.goto('/privacy-policy');
  const backToTop = page.getByRole('button', { name: 'Back to Top' });
  await backToTop.scrollIntoViewIfNeeded();
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(500);
  await backToTop.click();
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  await expect(page.getByRole('heading', { level: 1 })).toBeFocused();

  await page.getByRole('link', { name: 'Back to Home' }).click();
  await expect(page).toHaveURL('/');
  await expect(
    page.getByRole('heading', { level: 1, name: 'Music that goes where you go.' }),
  ).toBeVisible();
});

test('every legal page has Back to Home and Back to Top', async ({ page }) => {
  const legal = PUBLIC_ROUTES.filter((r) => r.strings.includes('Back to Top'));
  expect(legal).toHaveLength(7);
  for (const route of legal) {
    await page.goto(route.path);
    await expect(page.getByRole('link', { name: 'Back to Home' })).toHaveAttribute('href', '/');
    await expect(page.getByRole('button', { name: 'Back to Top' })).toBeVisible();
  }
});

test('an unknown path redirects to the landing page', async ({ page }) => {
  await page.goto('/this/does/not-exist?x=1');
  await expect(page).toHaveURL('/');
  await expect(
    page.getByRole('heading', { level: 1, name: 'Music that goes where you go.' }),
  ).toBeVisible();
});

test('payment pages link to plans and home', async ({ page }) => {
  await page.goto('/payment-failed');
  await expect(page.getByRole('link', { name: 'Back to plans' })).toHaveAttribute(
    'href',
    '/subscription',
  );
  await page.goto('/payment-approved');
  await expect(page.getByRole('link', { name: 'Go to Home' })).toHaveAttribute('href', '/home');
});

test('comparison page calls to action', async ({ page }) => {
  await page.goto('/comparison');
  await expect(page.getByRole('link', { name: 'Sign Up for Free' })).toHaveAttribute(
    'href',
    '/signup',
  );
  await expect(page.getByRole('link', { name: 'Explore All Plans' })).toHaveAttribute(
    'href',
    '/subscription',
  );
  await page.getByRole('link', { name: 'Back to Landing' }).click();
  await expect(page).toHaveURL('/');
});

test('changelog: Subscribe makes no network call', async ({ page }) => {
  await gotoHydrated(page, '/changelog');
  await page.waitForLoadState('networkidle');
  const requests: string[] = [];
  page.on('request', (req) => requests.push(req.url()));
  await page.getByLabel('Email address').fill('listener@example.com');
  await page.getByRole('button', { name: 'Subscribe' }).click();
  await expect(page.getByRole('status')).toContainText('new releases appear on this page first');
  await page.waitForTimeout(300);
  expect(requests).toEqual([]);
});
