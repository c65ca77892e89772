import { expect, test, type Page } from './support/test';
import { DEMO, signIn, signInAsNewUser } from './support/session';

const sidebar = (page: Page) => page.getByRole('complementary', { name: 'Sidebar' });
const sidebarWidth = (page: Page) =>
  sidebar(page).evaluate((el) => Math.round(el.getBoundingClientRect().width));

test.describe('dashboard layout, desktop', () => {
  test('sidebar groups, welcome line, plan, and no Administration for a listener', async ({
    page,
  }) => {
    await signIn(page, DEMO.listener);
    const side = sidebar(page);
    await expect(side.getByText('Welcome back,')).toContainText('Lena Listener');
    for (const group of ['Discover', 'Collection', 'Studio'])
      await expect(side.getByText(group)).toBeVisible();
    await expect(side.getByText('Administration')).toHaveCount(0);
    const nav = side.getByRole('navigation', { name: 'Main' });
    for (const name of [
      'Home',
      'Explore',
      'Library',
      'Liked Songs',
      'Upload',
      'Payouts',
      'Subscription',
    ])
      await expect(nav.getByRole('link', { name, exact: true })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Home' })).toHaveAttribute('aria-current', 'page');
    await expect(side.getByText('Free plan')).toBeVisible();
    await expect(side.getByRole('link', { name: 'Upload new track' })).toHaveAttribute(
      'href',
      '/upload',
    );

    await nav.getByRole('link', { name: 'Liked Songs' }).click();
    await expect(page).toHaveURL(/\/library\?tab=liked$/);
    await expect(nav.getByRole('link', { name: 'Liked Songs' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await expect(nav.getByRole('link', { name: 'Library' })).not.toHaveAttribute(
      'aria-current',
      'page',
    );
  });

  test('the admin sees the Administration group', async ({ page }) => {
    await signIn(page, DEMO.admin);
    await expect(sidebar(page).getByText('Administration')).toBeVisible();
    await expect(sidebar(page).getByRole('link', { name: 'Admin' })).toBeVisible();
  });

  test('the sidebar resizes by drag and keyboard within 248-420 px, hides, and remembers both', async ({
    page,
  }) => {
    await signIn(page, DEMO.listener);
    expect(await sidebarWidth(page)).toBe(304);
    const handle = page.getByRole('separator', { name: 'Resize sidebar' });
    const box = (await handle.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + 200);
    await page.mouse.down();
    await page.mouse.move(box.x + 600, box.y + 200, { steps: 5 });
    await page.mouse.up();
    expect(await sidebarWidth(page)).toBe(420);
    await handle.focus();
    await page.keyboard.press('ArrowLeft');
    await expect(handle).toHaveAttribute('aria-valuenow', '404');
    await page.keyboard.press('Home');
    expect(await sidebarWidth(page)).toBe(248);
    await page.keyboard.press('ArrowRight');
    await expect(handle).toHaveAttribute('aria-valuenow', '264');

    await page.getByRole('button', { name: 'Hide sidebar' }).click();
    await expect(sidebar(page)).toHaveCount(0);
    await page.reload();
    await expect(page.getByRole('button', { name: 'Show sidebar' })).toBeVisible();
    await expect(sidebar(page)).toHaveCount(0);
    await page.getByRole('button', { name: 'Show sidebar' }).click();
    expect(await sidebarWidth(page)).toBe(264);
  });

  test('top-bar search goes to /explore?q= trimmed, ignores blank, and clears', async ({
    page,
  }) => {
    await signIn(page, DEMO.listener);
    const box = page
      .getByRole('searchbox', { name: 'Search' })
      .or(page.getByPlaceholder('Search tracks, artists, albums...'));
    await box.first().fill('   ');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page).toHaveURL(/\/home$/);
    await box.first().fill('  neon tide  ');
    await page.getByRole('button', { name: 'Clear search' }).click();
    await expect(box.first()).toHaveValue('');
    await box.first().fill('  neon tide  ');
    await box.first().press('Enter');
    await expect(page).toHaveURL(/\/explore\?q=neon(\+|%20)tide$/);
    await page.getByRole('link', { name: 'Your profile' }).click();
    await expect(page).toHaveURL(/\/profile$/);
  });

  test('Sign out goes to /login, and the app is closed to the signed-out', async ({ page }) => {
    await signInAsNewUser(page, 'Sam Signout');
    await sidebar(page).getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await page.goto('/home', { waitUntil: 'commit' });
    await expect(page).toHaveURL(/\/login$/);
  });
  // Signing out with writes still queued: tests/e2e/offline.spec.ts (a first visit, offline).
});

test.describe('dashboard layout, mobile', () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test('the menu has the items plus Profile & Settings and Log Out', async ({ page }) => {
    await signIn(page, DEMO.listener);
    await expect(sidebar(page)).toBeHidden();
    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.getByRole('dialog', { name: 'Menu' });
    for (const name of [
      'Home',
      'Explore',
      'Library',
      'Liked Songs',
      'Upload',
      'Payouts',
      'Subscription',
      'Profile & Settings',
    ])
      await expect(menu.getByRole('link', { name, exact: true })).toBeVisible();
    await menu.getByRole('link', { name: 'Explore', exact: true }).click();
    await expect(page).toHaveURL(/\/explore$/);
    await expect(menu).toBeHidden();
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page
      .getByRole('dialog', { name: 'Menu' })
      .getByRole('button', { name: 'Log Out' })
      .click();
    await expect(page).toHaveURL(/\/login$/);
  });
});
