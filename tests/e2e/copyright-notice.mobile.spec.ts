/** The copyright flow at 375 px (support/copyright-flow.ts). */
import { expect, test } from './support/test';
import { runCopyrightFlow } from './support/copyright-flow';

test.describe.configure({ timeout: 240_000 });

test('phone: notice, removal, counter-notice by the mailed link (signed out) and restoration', async ({
  page,
  browser,
}) => {
  expect(page.viewportSize()?.width).toBe(375);
  await runCopyrightFlow(page, browser, { signedOut: true });
});
