/** PAYMENTS=off at 1440 px: no upgrade offer anywhere, the notice where one would be. */
import { expect, test } from './support/test';
import { expectNoUpgradeOffers } from './support/payments-off';

test('with payments off a free listener is offered no upgrade: home, ads, download, upload', async ({
  page,
}) => {
  test.setTimeout(180_000);
  expect(page.viewportSize()?.width).toBe(1440);
  await expectNoUpgradeOffers(page, 'desktop');
});
