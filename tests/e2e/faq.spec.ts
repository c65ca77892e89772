import { expect, test, type Page } from './support/test';
import { gotoHydrated } from './support/hydrated';

/** Picks a category the way a user does: by clicking its visible label. */
async function pick(page: Page, category: string) {
  const label = page.locator('label').filter({ hasText: new RegExp(`^${category}$`) });
  await label.click();
  await expect(page.getByRole('radio', { name: category })).toBeChecked();
  // The radio is checked natively at the click, before React renders the filtered list;
  // the label's data-active comes from that render (CI once counted the old list).
  await expect(label).toHaveAttribute('data-active', 'true');
}

test('FAQ filters by category and opens one answer at a time', async ({ page }) => {
  await gotoHydrated(page, '/faq');
  const questions = page.locator('[data-accordion-control]');
  await expect(questions).toHaveCount(11);
  await expect(page.getByText('11 questions')).toBeVisible();

  const counts: Record<string, number> = {};
  for (const category of ['General', 'Music', 'Payouts', 'Account']) {
    await pick(page, category);
    const n = await questions.count();
    expect(n).toBeGreaterThan(0);
    expect(n).toBeLessThan(11);
    await expect(page.getByText(new RegExp(`^${n} questions?$`))).toBeVisible();
    counts[category] = n;
  }
  expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(11);

  await pick(page, 'Payouts');
  await expect(page.getByRole('button', { name: /How much do artists earn/ })).toBeVisible();
  await expect(page.getByRole('button', { name: /cancel my subscription/ })).toHaveCount(0);

  await pick(page, 'All');
  await expect(questions).toHaveCount(11);

  const first = page.getByRole('button', { name: /How much do artists earn/ });
  await first.click();
  await expect(first).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByText(/2\.10 EUR/).first()).toBeVisible();
  const second = page.getByRole('button', { name: /Can I listen offline/ });
  await second.click();
  await expect(second).toHaveAttribute('aria-expanded', 'true');
  await expect(first).toHaveAttribute('aria-expanded', 'false');
  await second.click();
  await expect(second).toHaveAttribute('aria-expanded', 'false');
});

test('FAQ offers a contact-support mailto link', async ({ page }) => {
  await page.goto('/faq');
  await expect(page.getByRole('link', { name: 'Contact support' })).toHaveAttribute(
    'href',
    /^mailto:.+@.+/,
  );
});
