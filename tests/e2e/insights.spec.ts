/**
 * Issue 35: the demo artist opens /insights at 1440 and at 375 px and reads a listen-through
 * curve whose first point is 100 % and which never rises (the catalogue's, then one track's
 * over 12 months), the figures beside it, where listens come from, and the CSV export.
 */
import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from './support/test';
import { expectNoSidewaysScroll } from './support/layout';
import { signIn } from './support/session';

test.describe.configure({ timeout: 150_000 });

/** The curve's table: still-listening shares, in order. */
async function curveShares(page: Page): Promise<number[]> {
  const rows = page.getByTestId('curve-table').locator('tbody tr');
  await expect(rows.first()).toBeVisible({ timeout: 60_000 });
  const shares = await rows.evaluateAll((trs) =>
    trs.map((tr) => Number(tr.getAttribute('data-share'))),
  );
  return shares;
}

function expectFallingFrom100(shares: number[]) {
  expect(shares.length).toBeGreaterThan(5);
  expect(shares[0]).toBe(100);
  for (let i = 1; i < shares.length; i++) expect(shares[i]).toBeLessThanOrEqual(shares[i - 1]!);
  // The demo's listeners drop off: the curve ends below where it starts.
  expect(shares.at(-1)!).toBeLessThan(100);
}

async function openInsights(page: Page) {
  await signIn(page, 'artist@soundloft.local');
  await page.goto('/insights');
  await expect(page.getByRole('heading', { name: 'Insights', level: 1 })).toBeVisible();
}

for (const width of [1440, 375]) {
  test(`the demo artist reads a listen-through curve at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: width > 1000 ? 900 : 812 });
    await openInsights(page);
    // The catalogue over 30 days: figures, a curve in percent of each track, the sources.
    await expect(page.getByRole('group', { name: 'Counted plays' })).not.toContainText(/^0$/);
    expectFallingFrom100(await curveShares(page));
    await expect(
      page.getByRole('table', { name: 'Counted plays by where the listen started' }),
    ).toContainText('Explore');
    if (width < 1000) await expectNoSidewaysScroll(page);

    // One track over 12 months: the curve in seconds of the track.
    const picker = page.getByRole('combobox', { name: 'Track', exact: true });
    const first = await picker.locator('option').nth(1).getAttribute('value');
    await picker.selectOption(first!);
    await page.locator('label', { hasText: '12 months' }).click();
    await expect(page.getByTestId('curve-table').locator('caption')).toContainText(
      'at each point of the track',
      { timeout: 60_000 },
    );
    await expect(page.getByTestId('curve-table').locator('tbody tr').first()).toContainText('0:00');
    expectFallingFrom100(await curveShares(page));
    await expect(
      page.getByRole('table', { name: 'Counted plays, listeners and earnings per period' }),
    ).toContainText('€');
    if (width < 1000) await expectNoSidewaysScroll(page);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    const csv = await readFile((await download.path())!, 'utf8');
    expect(csv.startsWith('Soundloft insights,')).toBe(true);
    expect(csv).toContain('Still listening (%)');
    expect(csv).toMatch(/\r\n0,100,/);
  });
}
