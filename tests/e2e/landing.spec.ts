import { expect, test, type Page } from './support/test';

const header = (page: Page) => page.getByRole('banner');

/** Opens the landing page and waits until the app has rendered it. */
async function openLanding(page: Page) {
  await page.goto('/');
  await expect(
    page.getByRole('heading', { level: 1, name: 'Music that goes where you go.' }),
  ).toBeVisible();
}

async function sectionTopAfterScroll(page: Page, id: string) {
  await expect
    .poll(() =>
      page.evaluate(
        (sid) => Math.round(document.getElementById(sid)!.getBoundingClientRect().top),
        id,
      ),
    )
    .toBeLessThan(120);
}

test('header section links scroll to Features, Pricing and About', async ({ page }) => {
  await openLanding(page);
  for (const [label, id] of [
    ['Features', 'features'],
    ['Pricing', 'pricing'],
    ['About', 'about'],
  ] as const) {
    await header(page).getByRole('button', { name: label }).click();
    await sectionTopAfterScroll(page, id);
    await expect(page).toHaveURL(new RegExp(`#${id}$`));
  }
});

test('header links go to Compare and FAQ, and to Log In and Sign Up Free', async ({ page }) => {
  await openLanding(page);
  const nav = header(page);
  await expect(nav.getByRole('link', { name: 'Log In' })).toHaveAttribute('href', '/login');
  await expect(nav.getByRole('link', { name: 'Sign Up Free' })).toHaveAttribute('href', '/signup');
  await nav.getByRole('link', { name: 'Compare' }).click();
  await expect(page).toHaveURL('/comparison');
  await expect(page.getByRole('heading', { level: 1, name: 'Compare plans' })).toBeVisible();
  await page.goBack();
  await header(page).getByRole('link', { name: 'FAQ' }).click();
  await expect(page).toHaveURL('/faq');
  await expect(
    page.getByRole('heading', { level: 1, name: 'Frequently Asked Questions' }),
  ).toBeVisible();
  // Client-side navigation keeps the document title in step with the route.
  await expect(page).toHaveTitle('FAQ · Soundloft');
});

test('the header stays on screen while scrolling', async ({ page }) => {
  await openLanding(page);
  await page.evaluate(() => window.scrollTo(0, 2500));
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(2000);
  const box = await header(page).boundingBox();
  expect(box?.y).toBe(0);
});

test('pricing teaser shows every plan with its price and leads to /comparison', async ({
  page,
}) => {
  await openLanding(page);
  const pricing = page.locator('#pricing');
  for (const text of ['Free', 'Basic', 'Premium', '4.99 EUR', '9.99 EUR']) {
    await expect(pricing.getByText(text, { exact: true }).first()).toBeVisible();
  }
  await pricing.getByRole('link', { name: 'Compare all plans' }).click();
  await expect(page).toHaveURL('/comparison');
});

test('footer links to every legal page, the FAQ, community and comparison', async ({ page }) => {
  await openLanding(page);
  const footer = page.getByRole('contentinfo');
  const hrefs = await footer
    .getByRole('link')
    .evaluateAll((links) => links.map((a) => a.getAttribute('href')));
  for (const path of [
    '/terms-of-service',
    '/privacy-policy',
    '/copyright-policy',
    '/community',
    '/cookie-policy',
    '/music-licensing',
    '/accessibility-statement',
    '/faq',
    '/comparison',
  ]) {
    expect(hrefs).toContain(path);
  }
  await footer.getByRole('link', { name: 'Cookie Policy' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Cookie Policy' })).toBeVisible();
});

test('Product Hunt support section links out in a new tab', async ({ page }) => {
  await openLanding(page);
  const link = page.getByRole('link', { name: /Product Hunt/ });
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(link).toHaveAttribute('rel', /noopener/);
});

test('skip link moves keyboard focus to the main content', async ({ page }) => {
  await openLanding(page);
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('main')).toBeFocused();
});
