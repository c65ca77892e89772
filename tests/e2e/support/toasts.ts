/**
 * Toasts close by themselves after 3-5 s (spec 9): on a busy machine a test that waits for one
 * after an action can miss it. `recordToasts` notes the text of every toast the page shows, from
 * each document's start (an init script), so a test asserts that the toast was shown.
 */
import { expect, type Page } from '@playwright/test';

declare global {
  interface Window {
    __e2eToasts?: string[];
  }
}

export async function recordToasts(page: Page) {
  await page.addInitScript(() => {
    window.__e2eToasts = [];
    const seen = new WeakSet<Element>();
    new MutationObserver(() => {
      for (const toast of document.querySelectorAll('.mantine-Notification-root')) {
        if (seen.has(toast)) continue;
        seen.add(toast);
        window.__e2eToasts!.push((toast.textContent ?? '').trim());
      }
    }).observe(document, { childList: true, subtree: true, characterData: true });
  });
}

/** Waits until a toast containing `text` has been shown on the current document. */
export async function expectToast(page: Page, text: string) {
  await expect
    .poll(() => page.evaluate(() => window.__e2eToasts ?? []), { timeout: 30_000 })
    .toContainEqual(expect.stringContaining(text));
}
