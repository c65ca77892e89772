import { expect, type Page } from '@playwright/test';

/**
 * Chooses `item` in the "More options" menu of the row for `title`. A list can re-render under
 * the open menu (a search answered by the mirror, then by the server; a timed pop-up), which
 * unmounts the menu: the step opens it again instead of waiting on a detached item.
 */
export async function chooseRowAction(page: Page, title: string, item: string): Promise<void> {
  const menuItem = page.getByRole('menuitem', { name: item });
  await expect(async () => {
    if (!(await menuItem.isVisible())) {
      await page
        .getByRole('button', { name: `More options for ${title}` })
        .click({ timeout: 10_000 });
    }
    await menuItem.click({ timeout: 5_000 });
  }).toPass({ timeout: 60_000 });
}
