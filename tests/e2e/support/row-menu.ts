import { expect, type Page } from '@playwright/test';

/**
 * Chooses `item` in the "More options" menu of the row for `title`. A list can re-render under
 * the open menu (a search answered by the mirror, then by the server; a timed pop-up), which
 * unmounts the menu: the step opens it again instead of waiting on a detached item. Each try
 * starts with no menu open (a menu still closing after the previous step has the same items).
 */
export async function chooseRowAction(page: Page, title: string, item: string): Promise<void> {
  const menus = page.getByRole('menu');
  await expect(async () => {
    if ((await menus.count()) > 0) await page.keyboard.press('Escape');
    await expect(menus).toHaveCount(0, { timeout: 5_000 });
    await page
      .getByRole('button', { name: `More options for ${title}` })
      .click({ timeout: 10_000 });
    await menus.getByRole('menuitem', { name: item }).click({ timeout: 5_000 });
  }).toPass({ timeout: 60_000 });
}
