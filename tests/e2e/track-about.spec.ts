/**
 * The track page's About sentence takes the article the genre's sound wants (issue 34: "is a
 * electronic track"); the rule itself is unit tested in src/features/track/genre-phrase.test.ts.
 */
import { expect, test } from './support/test';
import { DEMO, serverRows, signIn } from './support/session';

test('About: "… is an ambient track by …"', async ({ page }) => {
  await signIn(page, DEMO.listener);
  const [track] = await serverRows<{ id: string; title: string }>(
    page.request,
    'tracks?select=id,title&genre=eq.Ambient&order=title.asc&limit=1',
  );
  expect(track, 'a seeded Ambient track').toBeTruthy();
  await page.goto(`/track/${track!.id}`);
  await expect(page.getByRole('region', { name: 'About' })).toContainText(
    `“${track!.title}” is an ambient track by`,
    { timeout: 25_000 },
  );
});
