/** The copyright flow at 1440 px (support/copyright-flow.ts). */
import { expect, test } from './support/test';
import { runCopyrightFlow } from './support/copyright-flow';

test.describe.configure({ timeout: 240_000 });

test('desktop: notice, removal, counter-notice and restoration on the test clock', async ({
  page,
  browser,
}) => {
  expect(page.viewportSize()?.width).toBe(1440);
  await runCopyrightFlow(page, browser, { offlineListener: true });
});
