import { expect as baseExpect, test } from './support/test';
import { demoTracks, seedLike } from './support/playlist-seed';
import { createUser, DEMO, serverRows, signIn, signInAsNewUser } from './support/session';
import { chooseRowAction } from './support/row-menu';

/** The shared e2e server can be slow under parallel load: wait longer before failing. */
const expect = baseExpect.configure({ timeout: 15_000 });

/** /library: tabs in the URL, empty states, playlist creation, liked songs, uploads. */

for (const width of ['desktop', 'mobile'] as const) {
  test.describe(`library (${width})`, () => {
    if (width === 'mobile') test.use({ viewport: { width: 375, height: 812 } });
    // Each test signs in a fresh user and waits for the server to hold its writes.
    test.describe.configure({ timeout: 120_000 });

    test('the tab follows the URL and the URL follows the tab; empty states', async ({ page }) => {
      await signInAsNewUser(page, 'Library Tabs');
      await page.goto('/library');
      await expect(page.getByRole('heading', { level: 1, name: 'Your Library' })).toBeVisible();
      await expect(page.getByRole('tab', { name: 'Your Uploads', selected: true })).toBeVisible();
      await expect(page.getByText("You haven't uploaded any tracks yet.")).toBeVisible();
      await expect(
        page.getByRole('main').getByRole('link', { name: 'Upload new track' }),
      ).toHaveAttribute('href', '/upload');

      await page.getByRole('tab', { name: 'Liked Songs' }).click();
      await expect(page).toHaveURL(/\/library\?tab=liked$/);
      await expect(page.getByText("You haven't liked any songs yet.")).toBeVisible();

      await page.getByRole('tab', { name: 'Playlists' }).click();
      await expect(page).toHaveURL(/\/library\?tab=playlists$/);
      await expect(page.getByText('No playlists yet.')).toBeVisible();

      await page.goBack();
      await expect(page.getByRole('tab', { name: 'Liked Songs', selected: true })).toBeVisible();

      await page.goto('/library?tab=playlists');
      await expect(page.getByRole('tab', { name: 'Playlists', selected: true })).toBeVisible();
      await page.goto('/library?tab=nonsense');
      await expect(page.getByRole('tab', { name: 'Your Uploads', selected: true })).toBeVisible();
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - window.innerWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);
    });

    test('create=playlist opens the form; a blank name is refused; a playlist is created', async ({
      page,
    }) => {
      const user = await signInAsNewUser(page, 'Playlist Maker');
      await page.goto('/library?create=playlist');
      const dialog = page.getByRole('dialog', { name: 'New playlist' });
      await expect(dialog).toBeVisible();
      await dialog.getByLabel('Playlist Name').fill('   ');
      await dialog.getByRole('button', { name: 'Create Playlist' }).click();
      await expect(dialog.getByText('Playlist name is required')).toBeVisible();
      await expect(dialog).toBeVisible();

      await dialog.getByLabel('Playlist Name').fill('  Night Drive  ');
      await dialog.getByLabel('Description').fill('Synths after midnight');
      await dialog.getByRole('button', { name: 'Create Playlist' }).click();
      await expect(dialog).toBeHidden();
      await expect(page).toHaveURL(/\/library\?tab=playlists$/);
      const card = page.getByRole('link', { name: 'Night Drive 0 tracks' });
      await expect(card).toBeVisible();
      await expect
        .poll(() =>
          serverRows<{ name: string; description: string }>(
            page.request,
            `playlists?created_by=eq.${user.id}&select=name,description`,
          ),
        )
        .toEqual([{ name: 'Night Drive', description: 'Synths after midnight' }]);

      await card.click();
      await expect(page).toHaveURL(/\/playlist\/[0-9a-f-]{36}$/);
      await expect(page.getByRole('heading', { level: 1, name: 'Night Drive' })).toBeVisible();
    });

    test('the New playlist button opens the form and Cancel closes it', async ({ page }) => {
      await signInAsNewUser(page);
      await page.goto('/library?tab=liked');
      await page.getByRole('button', { name: 'New playlist' }).click();
      await expect(page).toHaveURL(/create=playlist/);
      const dialog = page.getByRole('dialog', { name: 'New playlist' });
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expect(dialog).toBeHidden();
      await expect(page).toHaveURL(/\/library\?tab=liked$/);
    });

    test('Liked Songs lists likes and removes one', async ({ page }) => {
      const [track] = await demoTracks(page.request, 1);
      const user = await createUser(page.request, 'Liker');
      await seedLike(page.request, user.id, track!.id);
      await signIn(page, user.email, user.password);
      await page.goto('/library?tab=liked');
      const list = page.getByRole('table', { name: 'Liked Songs' });
      await expect(list.getByRole('link', { name: track!.title })).toBeVisible();
      await chooseRowAction(page, track!.title, 'Remove from Liked Songs');
      await expect(page.getByText("You haven't liked any songs yet.")).toBeVisible();
      await expect
        .poll(
          async () => (await serverRows(page.request, `liked_tracks?user_id=eq.${user.id}`)).length,
        )
        .toBe(0);
    });

    test('Your Uploads lists the own tracks with their status, Edit and Delete', async ({
      page,
    }) => {
      await signIn(page, DEMO.artist);
      await page.goto('/library');
      const list = page.getByRole('table', { name: 'Your Uploads' });
      await expect(list.locator('tbody tr').first()).toBeVisible();
      const title = await list.locator('tbody tr td:nth-child(2) a').first().textContent();
      await page.getByRole('button', { name: `More options for ${title}` }).click();
      await expect(page.getByRole('menuitem', { name: 'Play next' })).toBeVisible();
      // The row menu removes nothing; the artist's own Delete (with confirmation) is a button.
      await expect(page.getByRole('menuitem', { name: /^Remove/ })).toHaveCount(0);
      await page.keyboard.press('Escape');
      await expect(list.getByRole('button', { name: `Edit ${title}` })).toBeVisible();
      await list.getByRole('button', { name: `Delete ${title}` }).click();
      await expect(
        page.getByText(`Are you sure you want to delete "${title}"? This cannot be undone.`),
      ).toBeVisible();
      await page.getByRole('button', { name: 'Cancel' }).click();
      await expect(list.getByRole('button', { name: `Delete ${title}` })).toBeVisible();
    });
  });
}
