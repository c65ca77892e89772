import { expect as baseExpect, test, type APIRequestContext, type Page } from './support/test';
import { authHeadersOf, serviceRoleKey, signInAsNewUser, type TestUser } from './support/session';
import { coverPng, dropAudio, taggedMp3 } from './support/upload-page';

/** The shared e2e server can be slow under parallel load: wait longer before failing. */
const expect = baseExpect.configure({ timeout: 15_000 });

const LIMIT_REACHED =
  'You have reached your monthly upload limit. Upgrade your plan to upload more tracks.';

/** This month's uploads of `user`, as another device's uploads would have counted them. */
async function setUploadsUsed(request: APIRequestContext, user: TestUser, used: number) {
  const key = serviceRoleKey();
  const month = `${new Date().toISOString().slice(0, 7)}-01`;
  const res = await request.patch(`/rest/v1/profiles?id=eq.${user.id}`, {
    headers: { apikey: key, authorization: `Bearer ${key}`, prefer: 'return=minimal' },
    data: { monthly_uploads: used, monthly_uploads_month: month },
  });
  expect(res.ok(), await res.text()).toBe(true);
}

/** The names Storage lists in the user's folder of `bucket`, as the user. */
async function filesOf(request: APIRequestContext, user: TestUser, bucket: string) {
  const res = await request.post(`/storage/v1/object/list/${bucket}`, {
    headers: await authHeadersOf(request, user),
    data: { prefix: user.id, limit: 100, offset: 0 },
  });
  expect(res.ok(), await res.text()).toBe(true);
  return ((await res.json()) as { name: string }[]).map((f) => f.name);
}

async function fillForm(page: Page) {
  await dropAudio(
    page,
    taggedMp3('last call.mp3', 2, {
      title: 'Last Call',
      artist: 'Neon Harbor',
      cover: coverPng(48).bytes,
    }),
  );
  await expect(page.getByLabel('Title')).toHaveValue('Last Call');
  await page.getByLabel('Album').fill('Typed By Hand');
}

/** The form kept what the artist typed, and the page says why nothing was uploaded. */
async function expectRefusedAtLimit(page: Page) {
  const alert = page.getByRole('alert', { name: 'Upload failed' });
  await expect(alert).toContainText(LIMIT_REACHED);
  await expect(alert.getByRole('link', { name: 'View plans' })).toBeVisible();
  // Said once, with one way to the plans: the limits panel shows its figures.
  await expect(page.getByText(LIMIT_REACHED)).toHaveCount(1);
  await expect(page.getByRole('link', { name: 'View plans' })).toHaveCount(1);
  await expect(page.getByLabel('Title')).toHaveValue('Last Call');
  await expect(page.getByLabel('Album')).toHaveValue('Typed By Hand');
  await expect(page.getByRole('img', { name: 'Cover preview' })).toBeVisible();
  const limits = page.getByRole('region', { name: 'Upload limits' });
  await expect(limits.getByText('Used this month').locator('..')).toContainText('50');
  await expect(limits.getByText('Remaining').locator('..')).toContainText('0');
  await expect(page.getByRole('button', { name: 'Upload Track' })).toBeDisabled();
}

test.describe('upload at the monthly limit (issue 14: nothing left behind)', () => {
  test.describe.configure({ timeout: 120_000 });

  test('the limit reached on another device: Storage refuses the audio, the spec’s message shows, nothing typed is lost', async ({
    page,
  }) => {
    const artist = await signInAsNewUser(page, 'Limit Artist');
    await setUploadsUsed(page.request, artist, 49);
    await page.goto('/upload');
    const limits = page.getByRole('region', { name: 'Upload limits' });
    await expect(limits.getByText('Remaining').locator('..')).toContainText('1');
    await fillForm(page);
    // The last upload of the month is made elsewhere just as this one starts: before the
    // upload's creation reaches Storage (set earlier, the profile's realtime update could disable
    // the button before the click, which is right but not what this test is about).
    await page.route(/\/storage\/v1\/upload\/resumable$/, async (route) => {
      if (route.request().method() === 'POST') await setUploadsUsed(page.request, artist, 50);
      await route.continue();
    });
    const refused = page.waitForResponse(
      (r) => r.url().includes('/storage/v1/upload/resumable') && r.request().method() === 'POST',
    );
    await page.getByRole('button', { name: 'Upload Track' }).click();
    expect((await refused).status()).toBe(403);
    await expectRefusedAtLimit(page);
    expect(await filesOf(page.request, artist, 'tracks')).toEqual([]);
    expect(await filesOf(page.request, artist, 'covers')).toEqual([]);
    for (const width of [1440, 375]) {
      await page.setViewportSize({ width, height: width > 400 ? 1000 : 812 });
      await page.screenshot({
        path: test.info().outputPath(`upload-limit-${width}.png`),
        fullPage: true,
      });
    }
  });

  test('the last slot taken while the audio went up: the row is refused and the audio and cover are removed', async ({
    page,
  }) => {
    const artist = await signInAsNewUser(page, 'Race Artist');
    await setUploadsUsed(page.request, artist, 49);
    await page.goto('/upload');
    await fillForm(page);
    // A parallel upload takes the last slot between this one's audio and its track row.
    let inserts = 0;
    await page.route('**/rest/v1/tracks*', async (route) => {
      if (route.request().method() === 'POST') {
        inserts++;
        await setUploadsUsed(page.request, artist, 50);
      }
      await route.continue();
    });
    await page.getByRole('button', { name: 'Upload Track' }).click();
    await expectRefusedAtLimit(page);
    expect(inserts).toBe(1);
    // The page removed what it had sent: the original and the cover.
    await expect.poll(() => filesOf(page.request, artist, 'tracks')).toEqual([]);
    await expect.poll(() => filesOf(page.request, artist, 'covers')).toEqual([]);
  });
});
