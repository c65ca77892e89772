/** PAYMENTS=off on a phone (375 px): no upgrade offer anywhere, the notice where one would be. */
import { expect, test } from './support/test';
import { expectNoUpgradeOffers } from './support/payments-off';

test('phone: with payments off a free listener is offered no upgrade: home, ads, download, upload', async ({
  page,
}) => {
  test.setTimeout(180_000);
  expect(page.viewportSize()?.width).toBe(375);
  await expectNoUpgradeOffers(page, 'mobile');
});
