import { expect, test } from './support/test';

/**
 * A real crash: the code of the page being opened cannot be loaded (a flaky network, or a deploy
 * that removed an old chunk). The app shows the spec's fallback, and 'Try again' recovers once
 * the network is back.
 */
// The failure is injected at the network: keep the service worker (and its precache) out of it.
test.use({ serviceWorkers: 'block' });

test('crash fallback shows the error and Try again recovers', async ({ page }) => {
  await page.goto('/');
  await expect(
    page.getByRole('heading', { level: 1, name: 'Music that goes where you go.' }),
  ).toBeVisible();

  await page.route(/\/assets\/faq-[^/]+\.js$/, (route) => route.abort('connectionreset'));
  await page.getByRole('banner').getByRole('link', { name: 'FAQ' }).click();

  await expect(page.getByRole('heading', { level: 1, name: 'Something went wrong' })).toBeVisible();
  await expect(page.getByRole('alert')).toContainText(
    /dynamically imported module|Failed to fetch/i,
  );

  await page.unroute(/\/assets\/faq-[^/]+\.js$/);
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: 'Frequently Asked Questions' }),
  ).toBeVisible();
  await expect(page.getByText('Something went wrong')).toHaveCount(0);
});
