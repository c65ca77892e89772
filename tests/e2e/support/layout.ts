/** Layout checks of the phone specs. */
import { expect, type Page } from '@playwright/test';

/** Neither the document nor the app's scrolling main element scrolls sideways. */
export async function expectNoSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(() => {
    const main = document.getElementById('main');
    return Math.max(
      document.documentElement.scrollWidth - window.innerWidth,
      main ? main.scrollWidth - main.clientWidth : 0,
    );
  });
  expect(overflow, `${page.url()} overflows by ${overflow}px`).toBeLessThanOrEqual(0);
}
