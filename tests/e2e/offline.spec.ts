import { expect, test } from './support/test';
import { signInAsNewUser } from './support/session';

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

test.describe('a first visit, before the service worker has precached the chunks', () => {
  test.use({ serviceWorkers: 'block' });

  test('signing out offline still asks, and a dialog not loaded yet waits for the network instead of breaking the page', async ({
    page,
    context,
  }) => {
    // The frame loads the sign-out dialog's chunk when idle (CI saw the page replaced by
    // "Failed to fetch dynamically imported module" when it loaded only at first use).
    const dialogChunk = page.waitForResponse((r) => /\/sign-out-dialog-[^/]*\.js$/.test(r.url()));
    await signInAsNewUser(page, 'Fiona First');
    await page.goto('/explore');
    await page
      .getByRole('button', { name: /^Play / })
      .first()
      .click();
    const player = page.getByRole('region', { name: 'Player' });
    await expect(player).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: 'Synced' })).toBeVisible();
    // The chunk and what it imports (Modal, FocusTrap…) have all arrived: the same import in
    // the page resolves from its module map once the app's own has.
    const chunkUrl = (await dialogChunk).url();
    await page.evaluate(async (url) => void (await import(url)), chunkUrl);

    await context.setOffline(true);
    await player.getByRole('button', { name: 'Save to likes' }).click();
    await expect(player.getByRole('button', { name: 'Remove from likes' })).toBeVisible();
    await page
      .getByRole('complementary', { name: 'Sidebar' })
      .getByRole('button', { name: 'Sign out' })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Sign out with unsynced changes?' });
    await expect(dialog).toContainText('1 change has not reached the server yet.');
    await dialog.getByRole('button', { name: 'Stay signed in' }).click();
    await expect(dialog).toBeHidden();

    // The shortcuts' help was never loaded: offline it cannot open, and the page stays whole.
    await page.locator('body').press('?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await expect(page.getByRole('heading', { level: 1, name: 'All Tracks' })).toBeVisible();
    await expect(page.getByText('Something went wrong')).toHaveCount(0);
    await expect(help).toHaveCount(0);
    // Back online, the import is tried again and the dialog opens.
    await context.setOffline(false);
    await expect(help).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(help).toBeHidden();

    // The like reaches the server, and signing out no longer asks.
    await expect(page.getByRole('status').filter({ hasText: 'Synced' })).toBeVisible({
      timeout: 15_000,
    });
    await page
      .getByRole('complementary', { name: 'Sidebar' })
      .getByRole('button', { name: 'Sign out' })
      .click();
    await expect(page).toHaveURL(/\/login$/);
  });

  test('a link followed offline to a page whose code is not loaded yet keeps the page, and opens it with the network', async ({
    page,
    context,
  }) => {
    await signInAsNewUser(page, 'Rita Route');
    await page.goto('/explore');
    await expect(page.getByRole('status').filter({ hasText: 'Synced' })).toBeVisible();
    await context.setOffline(true);
    // TanStack Router reloads the document when a route's chunk fails: offline, that was the
    // browser's error page in place of the app.
    await page
      .getByRole('complementary', { name: 'Sidebar' })
      .getByRole('link', { name: 'Payouts' })
      .click();
    await expect(page.getByRole('heading', { level: 1, name: 'All Tracks' })).toBeVisible();
    await expect(page.getByText('Offline', { exact: true }).first()).toBeVisible();
    // (The address already reads /payouts: the navigation waits for its code.)
    await context.setOffline(false);
    await expect(page.getByRole('heading', { level: 1, name: 'Payouts' })).toBeVisible();
    await expect(page).toHaveURL(/\/payouts$/);
  });
});
