import { expect, test } from '@playwright/test';

test('a repeat visit works offline, including pages not visited yet', async ({ page, context }) => {
  test.slow(); // the service worker precaches the whole shell (3.1 MB) before the page goes offline
  await page.goto('/');
  await expect(
    page.getByRole('heading', { level: 1, name: 'Music that goes where you go.' }),
  ).toBeVisible();
  // Wait until the service worker has precached the shell and controls the page.
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise<void>((resolve) =>
        navigator.serviceWorker.addEventListener('controllerchange', () => resolve(), {
          once: true,
        }),
      );
    }
  });

  await context.setOffline(true);
  await page.reload();
  await expect(
    page.getByRole('heading', { level: 1, name: 'Music that goes where you go.' }),
  ).toBeVisible();

  await page.goto('/changelog');
  await expect(page.getByRole('heading', { level: 1, name: 'Platform Updates' })).toBeVisible();
  await page.getByRole('banner').getByRole('link', { name: 'FAQ' }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: 'Frequently Asked Questions' }),
  ).toBeVisible();
  await context.setOffline(false);
});
