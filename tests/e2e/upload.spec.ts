import { expect as baseExpect, test } from './support/test';
import { signInAsNewUser } from './support/session';
import { coverPng, dropAudio, pickFile, taggedMp3 } from './support/upload-page';

/** The shared e2e server can be slow under parallel load: wait longer before failing. */
const expect = baseExpect.configure({ timeout: 15_000 });

/** /upload (issue 14): the form, its prefill from the file's own tags, its messages. */
test.describe('upload form', () => {
  test.describe.configure({ timeout: 120_000 });

  test('a dropped MP3 fills the form from its tags and embedded cover', async ({ page }) => {
    await signInAsNewUser(page, 'Drop Artist');
    await page.goto('/upload');
    await expect(page.getByRole('heading', { level: 1, name: 'Upload Track' })).toBeVisible();
    for (const section of ['Audio File', 'Track Details', 'Cover Image (optional)'])
      await expect(page.getByRole('heading', { name: section })).toBeVisible();
    // Spec 2: artist prefilled with the user's name; Submit disabled without a file.
    await expect(page.getByLabel('Artist')).toHaveValue('Drop Artist');
    await expect(page.getByRole('button', { name: 'Upload Track' })).toBeDisabled();
    // The limits panel: free plan, 50 a month, none used.
    const limits = page.getByRole('region', { name: 'Upload limits' });
    await expect(limits.getByText('50 tracks')).toBeVisible();
    await expect(limits.getByText('Free', { exact: true })).toBeVisible();

    await dropAudio(
      page,
      taggedMp3('night drive.mp3', 3, {
        title: 'Night Drive',
        artist: 'Neon Harbor',
        album: 'Coastlines',
        genre: 'Synthwave',
        cover: coverPng(48).bytes,
      }),
    );
    await expect(page.getByTestId('audio-file-name')).toHaveText('night drive.mp3');
    await expect(page.getByLabel('Title')).toHaveValue('Night Drive');
    await expect(page.getByLabel('Artist')).toHaveValue('Neon Harbor');
    await expect(page.getByLabel('Album')).toHaveValue('Coastlines');
    await expect(page.getByLabel('Genre')).toHaveValue('Synthwave');
    await expect(page.getByRole('img', { name: 'Cover preview' })).toBeVisible();
    await expect(page.getByText("From the audio file's tags.")).toBeVisible();
    await expect(page.getByText('0:03')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Upload Track' })).toBeEnabled();

    // Emptying a required field says so next to it and disables Submit.
    await page.getByLabel('Title').fill('');
    await expect(page.getByText('Please enter a title.')).toBeVisible();
    await page.getByLabel('Artist').fill(' ');
    await expect(page.getByText('Please enter an artist name.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Upload Track' })).toBeDisabled();

    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect(page).toHaveURL(/\/library$/);
  });

  test('every file message of spec 5 shows next to its field', async ({ page }) => {
    await signInAsNewUser(page, 'Wrong Files');
    await page.goto('/upload');
    // An image in the audio picker, a renamed non-audio file, then a real MP3 without tags.
    await pickFile(page, 'Audio file', coverPng());
    await expect(page.getByText('Please select an audio file.')).toBeVisible();
    await pickFile(page, 'Audio file', {
      name: 'setup.mp3',
      type: 'audio/mpeg',
      bytes: new TextEncoder().encode('MZ not audio '.repeat(500)),
    });
    await expect(
      page.getByText('Failed to load audio file. Please try another file.'),
    ).toBeVisible();
    await pickFile(page, 'Audio file', taggedMp3('My First Song.mp3', 1, {}));
    // Spec 5: the title from the file name without its extension.
    await expect(page.getByLabel('Title')).toHaveValue('My First Song');

    await pickFile(page, 'Cover image file', {
      name: 'logo.svg',
      type: 'image/svg+xml',
      bytes: new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>'),
    });
    await expect(page.getByText('Please select an image file.')).toBeVisible();
    await pickFile(page, 'Cover image file', {
      name: 'huge.png',
      type: 'image/png',
      bytes: new Uint8Array(5 * 1024 * 1024 + 10),
    });
    await expect(page.getByText('Cover image must be less than 5MB.')).toBeVisible();
  });
});

test('screens: /upload at 1440 and 375 px (for docs/screens.md)', async ({ page }) => {
  test.setTimeout(120_000);
  await signInAsNewUser(page, 'Screen Artist');
  for (const width of [1440, 375]) {
    await page.setViewportSize({ width, height: width > 400 ? 1000 : 812 });
    await page.goto('/upload');
    await dropAudio(
      page,
      taggedMp3('screen.mp3', 2, {
        title: 'Harbor Lights',
        artist: 'Neon Harbor',
        cover: coverPng(96).bytes,
      }),
    );
    await expect(page.getByLabel('Title')).toHaveValue('Harbor Lights');
    await page.screenshot({ path: test.info().outputPath(`upload-${width}.png`), fullPage: true });
  }
});
