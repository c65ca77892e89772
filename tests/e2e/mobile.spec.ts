import { expect, test } from './support/test';
import { PUBLIC_ROUTES } from '../public-routes';
import { gotoHydrated } from './support/hydrated';

test('no public page scrolls horizontally at 375 px', async ({ page }) => {
  expect(page.viewportSize()?.width).toBe(375);
  for (const route of PUBLIC_ROUTES) {
    await page.goto(route.path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    expect(overflow, `${route.path} overflows by ${overflow}px`).toBeLessThanOrEqual(0);
  }
});

test('the mobile menu opens, scrolls to a section and navigates', async ({ page }) => {
  await gotoHydrated(page, '/');
  await page.getByRole('button', { name: 'Open menu' }).click();
  const menu = page.getByRole('dialog', { name: 'Menu' });
  await expect(menu).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Sign Up Free' })).toHaveAttribute('href', '/signup');
  await menu.getByRole('button', { name: 'Pricing' }).click();
  await expect(menu).toBeHidden();
  await expect
    .poll(() =>
      page.evaluate(() =>
        Math.round(document.getElementById('pricing')!.getBoundingClientRect().top),
      ),
    )
    .toBeLessThan(120);

  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('dialog', { name: 'Menu' }).getByRole('link', { name: 'FAQ' }).click();
  await expect(page).toHaveURL('/faq');
});
