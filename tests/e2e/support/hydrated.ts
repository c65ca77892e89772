import { expect, type Page } from '@playwright/test';

/**
 * Opens a page and waits until React has hydrated it. A prerendered public page (/faq, /) shows
 * its controls at once, but a click before hydration lands on markup without handlers: a radio
 * checks natively and React's state never hears of it (CI once lost /faq's category that way).
 */
export async function gotoHydrated(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await expect(page.locator('html[data-app-ready="true"]')).toHaveCount(1);
}
