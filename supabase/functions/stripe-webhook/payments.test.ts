/**
 * Payments end to end on the real server: the official `stripe` library (as the functions use
 * it, and as tests drive Stripe) against the local sandbox, the hosted checkout page over HTTP,
 * webhooks signed and delivered by the sandbox to stripe-webhook, the plan in the database.
 */
import type { FunctionsHttpError } from '@supabase/supabase-js';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_HOOK_TIMEOUT_MS } from '../../../server/db/test-database';
import { createAdmin, type TestUser } from '../../../server/db/test-factories';
import {
  startFunctionsHarness,
  type FunctionsHarness,
} from '../../../server/functions/test-support';
import type { StripeSandboxServer } from '../../../server/stripe-sandbox';

let h: FunctionsHarness;
let sandbox: StripeSandboxServer;
let stripe: Stripe;

beforeAll(async () => {
  h = await startFunctionsHarness({ stripeSandbox: true });
  sandbox = h.stripe!;
  const url = new URL(h.url);
  stripe = new Stripe(sandbox.keys.secretKey, {
    host: url.hostname,
    port: Number(url.port),
    protocol: 'http',
    httpClient: Stripe.createFetchHttpClient(),
  });
}, DATABASE_HOOK_TIMEOUT_MS);
afterAll(async () => h?.close(), DATABASE_HOOK_TIMEOUT_MS);

const DAY = 24 * 3600;
// Each test runs several HTTP round trips and webhook deliveries: slow under load, never timed.
const TEST_TIMEOUT_MS = 120_000;

async function invoke(name: string, user: TestUser | null, body: Record<string, unknown>) {
  const { data, error } = await h.client(user ?? undefined).functions.invoke(name, { body });
  if (!error) return { status: 200, body: data as Record<string, unknown> };
  const context = (error as FunctionsHttpError).context as Response;
  return { status: context.status, body: (await context.json()) as Record<string, unknown> };
}

const checkout = (user: TestUser, planId: string, promoCode: string | null = null) =>
  invoke('create-checkout-session', user, {
    planId,
    userId: user.id,
    email: user.email,
    promoCode,
  });

/** Fills the hosted page's form as a browser would; answers the status and where it redirects. */
async function pay(url: string, card = '4242 4242 4242 4242', extra: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      cardnumber: card,
      exp: '12 / 34',
      cvc: '123',
      name: 'Test',
      ...extra,
    }),
  });
  return { status: res.status, location: res.headers.get('location'), html: await res.text() };
}

async function planOf(user: TestUser): Promise<string> {
  const { rows } = await h.db.query<{ subscription_plan: string }>(
    'select subscription_plan from public.profiles where id = $1',
    [user.id],
  );
  return rows[0]!.subscription_plan;
}

async function subscriptionRow(user: TestUser) {
  const { rows } = await h.db.query<{
    id: string;
    status: string;
    plan_id: string;
    cancel_at_period_end: boolean;
    current_period_end: string;
  }>('select * from public.subscriptions where user_id = $1 order by created_at desc', [user.id]);
  return rows[0];
}

/** A user subscribed to `plan` through checkout and the webhook. */
async function subscribed(plan: 'basic' | 'premium', user?: TestUser) {
  const u = user ?? (await h.newUser());
  const session = await checkout(u, plan);
  expect(session.status).toBe(200);
  const paid = await pay(session.body.url as string);
  expect(paid.status).toBe(303);
  await sandbox.delivery.idle();
  return u;
}

/** A user whose Stripe customer lives on a fresh test clock (as Stripe requires: set at creation). */
async function userOnClock() {
  const user = await h.newUser();
  const start = Math.floor(Date.now() / 1000);
  const clock = await stripe.testHelpers.testClocks.create({ frozen_time: start });
  const customer = await stripe.customers.create({ email: user.email, test_clock: clock.id });
  await h.db.query('select public.link_stripe_customer($1, $2)', [user.id, customer.id]);
  return { user, clock, start, customer };
}

async function sendSigned(payload: string, header: string) {
  return h.invokeRaw('stripe-webhook', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Stripe-Signature': header },
    body: payload,
  });
}

function signed(event: unknown, timestamp?: number) {
  const payload = JSON.stringify(event);
  return {
    payload,
    header: stripe.webhooks.generateTestHeaderString({
      payload,
      secret: sandbox.keys.webhookSecret,
      timestamp,
    }),
  };
}

const eventCount = async () =>
  Number(
    (await h.db.query<{ n: string }>('select count(*) as n from public.stripe_events')).rows[0]!.n,
  );

describe('checkout', { timeout: TEST_TIMEOUT_MS }, () => {
  it('upgrades the plan only when the signed webhook reports the payment', async () => {
    const user = await h.newUser();
    const session = await checkout(user, 'basic');
    expect(session.status).toBe(200);
    expect(session.body.id).toMatch(/^cs_test_/);
    expect(session.body.url).toBe(`${h.url}/_stripe/c/pay/${session.body.id as string}`);

    const page = await fetch(session.body.url as string);
    const html = await page.text();
    expect(html).toContain('Development stand-in for Stripe Checkout: no money moves.');
    expect(html).toContain('€4.99');
    expect(await planOf(user)).toBe('free');

    const paid = await pay(session.body.url as string);
    expect(paid.status).toBe(303);
    expect(paid.location).toBe(`${h.url}/payment-approved?session_id=${session.body.id as string}`);
    await sandbox.delivery.idle();
    expect(await planOf(user)).toBe('basic');

    const retrieved = await stripe.checkout.sessions.retrieve(session.body.id as string);
    expect(retrieved).toMatchObject({
      status: 'complete',
      payment_status: 'paid',
      client_reference_id: user.id,
    });
    const sub = await stripe.subscriptions.retrieve(retrieved.subscription as string);
    expect(sub.status).toBe('active');
    expect(sub.items.data[0]!.price.lookup_key).toBe('soundloft_basic_monthly');

    // The owner reads their subscription; nobody else does.
    const own = await h.client(user).from('subscriptions').select('id, plan_id, status');
    expect(own.data).toEqual([{ id: sub.id, plan_id: 'basic', status: 'active' }]);
    const other = await h
      .client(await h.newUser())
      .from('subscriptions')
      .select('id')
      .eq('id', sub.id);
    expect(other.data).toEqual([]);
    const anon = await h.client().from('subscriptions').select('id').eq('id', sub.id);
    expect(anon.data ?? []).toEqual([]);
    const admin = await h
      .client(await createAdmin(h.db))
      .from('subscriptions')
      .select('id')
      .eq('id', sub.id);
    expect(admin.data).toEqual([{ id: sub.id }]);
  });

  it('leaves the plan alone when the card is declined, and keeps the session open for another card', async () => {
    const user = await h.newUser();
    const session = await checkout(user, 'premium');
    const declined = await pay(session.body.url as string, '4000 0000 0000 0002');
    expect(declined.status).toBe(402);
    expect(declined.html).toContain('Your card was declined.');
    await sandbox.delivery.idle();
    expect(await planOf(user)).toBe('free');
    expect(await subscriptionRow(user)).toBeUndefined();
    expect((await stripe.checkout.sessions.retrieve(session.body.id as string)).status).toBe(
      'open',
    );
    expect(declined.html).toContain(`href="${h.url}/payment-failed"`); // Back: the cancel_url
  });

  it('asks for the confirmation step of the 3D Secure test card', async () => {
    const user = await h.newUser();
    const session = await checkout(user, 'basic');
    const challenge = await pay(session.body.url as string, '4000 0025 0000 3155');
    expect(challenge.status).toBe(200);
    expect(challenge.html).toContain('3D Secure 2 test page');
    const failed = await pay(`${session.body.url as string}/authenticate`, '4000002500003155', {
      result: 'fail',
    });
    expect(failed.html).toContain('We are unable to authenticate your payment method.');
    const done = await pay(`${session.body.url as string}/authenticate`, '4000002500003155', {
      result: 'complete',
    });
    expect(done.status).toBe(303);
    await sandbox.delivery.idle();
    expect(await planOf(user)).toBe('basic');
  });

  it('refuses other users, the free plan and signed-out callers', async () => {
    const user = await h.newUser();
    const other = await h.newUser();
    expect(
      (await invoke('create-checkout-session', user, { planId: 'basic', userId: other.id })).status,
    ).toBe(403);
    expect((await checkout(user, 'free')).status).toBe(400);
    expect((await invoke('create-checkout-session', null, { planId: 'basic' })).status).toBe(401);
  });
});

describe('promo codes', { timeout: TEST_TIMEOUT_MS }, () => {
  it('applies the demo code WELCOME50 to the first invoice only', async () => {
    const { user, clock, start } = await userOnClock();
    const session = await checkout(user, 'basic', 'welcome50');
    expect(session.status).toBe(200);
    const s = await stripe.checkout.sessions.retrieve(session.body.id as string);
    expect(s.amount_subtotal).toBe(499);
    expect(s.amount_total).toBe(249); // 2.495 EUR off, rounded to the cent
    await pay(session.body.url as string);
    await sandbox.delivery.idle();
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: start + 32 * DAY });
    await sandbox.delivery.idle();
    const invoices = await stripe.invoices.list({ customer: s.customer as string });
    expect(invoices.data.map((i) => i.amount_paid).sort()).toEqual([249, 499]);
    expect(await planOf(user)).toBe('basic');
  });

  it("answers Stripe's invalid coupon for unknown, inactive, used-up and expired codes", async () => {
    const user = await h.newUser();
    expect((await checkout(user, 'basic', 'NOSUCHCODE')).body).toEqual({ error: 'Invalid coupon' });

    const coupon = await stripe.coupons.create({ percent_off: 10, duration: 'once' });
    const inactive = await stripe.promotionCodes.create({
      promotion: { type: 'coupon', coupon: coupon.id },
      code: `OFF${Date.now()}`,
    });
    await stripe.promotionCodes.update(inactive.id, { active: false });
    expect((await checkout(user, 'basic', inactive.code)).body).toEqual({
      error: 'Invalid coupon',
    });

    const once = await stripe.promotionCodes.create({
      promotion: { type: 'coupon', coupon: coupon.id },
      code: `ONCE${Date.now()}`,
      max_redemptions: 1,
    });
    const first = await h.newUser();
    const ok = await checkout(first, 'basic', once.code);
    expect(ok.status).toBe(200);
    await pay(ok.body.url as string);
    await sandbox.delivery.idle();
    const second = await checkout(user, 'basic', once.code);
    expect(second).toEqual({ status: 400, body: { error: 'Invalid coupon' } });

    // Expired: a coupon past its redeem_by, and a code past its expires_at (real time here).
    const soon = Math.floor(Date.now() / 1000) + 2;
    const ending = await stripe.coupons.create({
      percent_off: 10,
      duration: 'once',
      redeem_by: soon,
    });
    const lateCoupon = await stripe.promotionCodes.create({
      promotion: { type: 'coupon', coupon: ending.id },
      code: `LATE${Date.now()}`,
    });
    const lateCode = await stripe.promotionCodes.create({
      promotion: { type: 'coupon', coupon: coupon.id },
      code: `GONE${Date.now()}`,
      expires_at: soon,
    });
    await new Promise((resolve) => setTimeout(resolve, (soon + 1) * 1000 - Date.now()));
    for (const code of [lateCoupon.code, lateCode.code]) {
      expect(await checkout(user, 'basic', code)).toEqual({
        status: 400,
        body: { error: 'Invalid coupon' },
      });
    }

    // The library sees Stripe's error JSON as a StripeInvalidRequestError.
    await expect(
      stripe.checkout.sessions.create({
        mode: 'subscription',
        line_items: [
          {
            price: (await stripe.prices.list({ lookup_keys: ['soundloft_basic_monthly'] })).data[0]!
              .id,
            quantity: 1,
          },
        ],
        discounts: [{ coupon: 'NOPE' }],
        success_url: 'http://x/ok',
      }),
    ).rejects.toMatchObject({
      type: 'StripeInvalidRequestError',
      code: 'resource_missing',
      param: 'discounts[0][coupon]',
      message: "No such coupon: 'NOPE'",
    });
  });
});

describe('stripe-webhook', { timeout: TEST_TIMEOUT_MS }, () => {
  it('refuses a bad signature and a stale timestamp with 400, changing nothing', async () => {
    const user = await subscribed('basic');
    const [event] = (await stripe.events.list({ type: 'checkout.session.completed', limit: 1 }))
      .data;
    const forged = { ...event!, id: 'evt_forged_1' };
    const before = await eventCount();

    const bad = signed(forged);
    const tampered = await sendSigned(bad.payload, bad.header.replace(/v1=[0-9a-f]{4}/, 'v1=0000'));
    expect(tampered.status).toBe(400);
    const otherSecret = stripe.webhooks.generateTestHeaderString({
      payload: bad.payload,
      secret: 'whsec_wrong',
    });
    expect((await sendSigned(bad.payload, otherSecret)).status).toBe(400);
    expect((await sendSigned(bad.payload, '')).status).toBe(400);

    const stale = signed(forged, Math.floor(Date.now() / 1000) - 600);
    const res = await sendSigned(stale.payload, stale.header);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(/tolerance/i);

    expect(await eventCount()).toBe(before);
    expect(await planOf(user)).toBe('basic');
  });

  it('processes each event id once: a replay is a no-op', async () => {
    await subscribed('basic');
    const [event] = (await stripe.events.list({ type: 'checkout.session.completed', limit: 1 }))
      .data;
    const again = signed(event);
    const res = await sendSigned(again.payload, again.header);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: true, outcome: 'duplicate' });
  });

  it('copes with events out of order: a late "created" cannot undo a cancellation', async () => {
    const user = await h.newUser();
    const captured: Stripe.Event[] = [];
    const saved = sandbox.endpoints.splice(0); // hold deliveries back
    const stop = sandbox.sandbox.onEvent((e) => captured.push(e as unknown as Stripe.Event));
    try {
      const session = await checkout(user, 'premium');
      await pay(session.body.url as string);
      const sub = (await stripe.checkout.sessions.retrieve(session.body.id as string))
        .subscription as string;
      await stripe.subscriptions.cancel(sub);
    } finally {
      stop();
      sandbox.endpoints.push(...saved);
    }
    const types = captured.map((e) => e.type);
    expect(types).toEqual(
      expect.arrayContaining(['checkout.session.completed', 'customer.subscription.deleted']),
    );
    for (const event of [...captured].reverse()) {
      const s = signed(event);
      expect((await sendSigned(s.payload, s.header)).status).toBe(200);
    }
    expect(await planOf(user)).toBe('free');
    expect((await subscriptionRow(user))?.status).toBe('canceled');
  });

  it("never applies a subscription to a user other than its customer's owner", async () => {
    const owner = await subscribed('premium');
    const victim = await h.newUser();
    const sub = (await subscriptionRow(owner))!;
    const [event] = (
      await stripe.events.list({ type: 'checkout.session.completed', limit: 5 })
    ).data.filter((e) => (e.data.object as Stripe.Checkout.Session).subscription === sub.id);
    const forged = {
      ...event!,
      id: `evt_forged_${Date.now()}`,
      data: { object: { ...(event!.data.object as object), client_reference_id: victim.id } },
    };
    const s = signed(forged);
    const res = await sendSigned(s.payload, s.header);
    expect(await res.json()).toEqual({ received: true, outcome: 'customer_mismatch' });
    expect(await planOf(victim)).toBe('free');

    // A customer that belongs to nobody here changes nobody's plan.
    const stranger = await stripe.customers.create({ email: 'stranger@example.test' });
    const { rows } = await h.db.query<{ apply_stripe_event: string }>(
      `select public.apply_stripe_event('evt_stranger_1', 'customer.subscription.updated', 1, $1::jsonb)`,
      [
        JSON.stringify({
          id: 'sub_stranger',
          customer: stranger.id,
          status: 'active',
          plan_id: 'premium',
          price_id: 'price_x',
        }),
      ],
    );
    expect(rows[0]!.apply_stripe_event).toBe('unknown_customer');
  });

  it('retries a delivery the endpoint failed', async () => {
    const user = await h.newUser();
    const real = sandbox.endpoints[0]!.url;
    let failures = 0;
    const { serveApp } = await import('../../../server/storage/test-support');
    const { Hono } = await import('hono');
    const flaky = new Hono().post('/', async (c) => {
      if (failures < 2) {
        failures++;
        return c.text('down', 503);
      }
      return fetch(real, { method: 'POST', headers: c.req.raw.headers, body: await c.req.text() });
    });
    const proxy = await serveApp(flaky);
    sandbox.endpoints[0]!.url = proxy.url;
    try {
      const session = await checkout(user, 'basic');
      await pay(session.body.url as string);
      await sandbox.delivery.idle();
    } finally {
      sandbox.endpoints[0]!.url = real;
      await proxy.close();
    }
    expect(failures).toBe(2);
    const attempts = sandbox.delivery.attempts.filter((a) => a.url === proxy.url);
    expect(attempts.some((a) => a.attempt > 1 && a.status === 200)).toBe(true);
    expect(await planOf(user)).toBe('basic');
  });
});

describe('plan rules in the database', { timeout: TEST_TIMEOUT_MS }, () => {
  it('a user cannot set their own plan or subscription', async () => {
    const user = await h.newUser();
    const client = h.client(user);
    const patch = await client
      .from('profiles')
      .update({ subscription_plan: 'premium' } as never)
      .eq('id', user.id);
    expect(patch.error?.code).toBe('42501');
    const insert = await client.from('subscriptions').insert({
      id: 'sub_mine',
      user_id: user.id,
      customer_id: 'cus_x',
      plan_id: 'premium',
      price_id: 'p',
      status: 'active',
    } as never);
    expect(insert.error).not.toBeNull();
    const rpc = await client.rpc(
      'apply_stripe_event' as never,
      {
        p_event_id: 'evt_self',
        p_event_type: 'x',
        p_event_created: 1,
        p_subscription: null,
      } as never,
    );
    expect(rpc.error?.code).toBe('42501');
    const link = await client.rpc(
      'link_stripe_customer' as never,
      { p_user: user.id, p_customer: 'cus_mine' } as never,
    );
    expect(link.error?.code).toBe('42501');
    expect(await planOf(user)).toBe('free');
  });

  it('offline downloads are for premium only (plan_allows_offline)', async () => {
    const free = await h.newUser();
    const basic = await subscribed('basic');
    const premium = await subscribed('premium');
    const allows = async (u: TestUser) =>
      (await h.client(u).rpc('plan_allows_offline' as never, { p_user: u.id } as never))
        .data as unknown as boolean;
    expect([await allows(free), await allows(basic), await allows(premium)]).toEqual([
      false,
      false,
      true,
    ]);
  });
});

describe('changing and ending a plan', { timeout: TEST_TIMEOUT_MS }, () => {
  it('changes Basic to Premium with a prorated invoice, through the webhook', async () => {
    const { user, clock, start } = await userOnClock();
    await subscribed('basic', user);
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: start + 15 * DAY });
    const change = await checkout(user, 'premium');
    expect(change.status).toBe(200);
    expect(change.body.url).toBe(`${h.url}/payment-approved?plan=premium`);
    await sandbox.delivery.idle();
    expect(await planOf(user)).toBe('premium');
    const sub = (await subscriptionRow(user))!;
    const invoices = await stripe.invoices.list({ subscription: sub.id });
    const proration = invoices.data.find((i) => i.billing_reason === 'subscription_update')!;
    // (9.99 - 4.99) for the half of the period left: about 2.50 EUR.
    expect(proration.amount_paid).toBeGreaterThan(230);
    expect(proration.amount_paid).toBeLessThan(270);
    expect((await checkout(user, 'premium')).body).toEqual({
      error: 'You are already on this plan.',
    });
  });

  it('downgrades at the end of the paid period (test clock)', async () => {
    const { user, clock, start } = await userOnClock();
    await subscribed('basic', user);
    const cancel = await invoke('cancel-subscription', user, { userId: user.id });
    expect(cancel.status).toBe(200);
    const periodEnd = (await subscriptionRow(user))!.current_period_end;
    expect(cancel.body).toEqual({ success: true, cancelAt: new Date(periodEnd).toISOString() });
    await sandbox.delivery.idle();
    expect((await subscriptionRow(user))!.cancel_at_period_end).toBe(true);
    expect(await planOf(user)).toBe('basic'); // paid for until the period ends

    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: start + 20 * DAY });
    await sandbox.delivery.idle();
    expect(await planOf(user)).toBe('basic');
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: start + 32 * DAY });
    await sandbox.delivery.idle();
    expect(await planOf(user)).toBe('free');
    expect((await subscriptionRow(user))!.status).toBe('canceled');
    expect((await invoke('cancel-subscription', user, { userId: user.id })).status).toBe(400);
  });

  it('a failed renewal keeps the plan while Stripe retries, then ends it', async () => {
    const { user, clock, start, customer } = await userOnClock();
    await subscribed('premium', user);
    const sub = (await subscriptionRow(user))!;
    const failing = await stripe.paymentMethods.attach('pm_card_chargeCustomerFail', {
      customer: customer.id,
    });
    await stripe.subscriptions.update(sub.id, { default_payment_method: failing.id });
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: start + 32 * DAY });
    await sandbox.delivery.idle();
    expect((await subscriptionRow(user))!.status).toBe('past_due');
    expect(await planOf(user)).toBe('premium');
    const failed = await stripe.events.list({ type: 'invoice.payment_failed', limit: 10 });
    expect(
      failed.data.some((e) => (e.data.object as Stripe.Invoice).customer === customer.id),
    ).toBe(true);

    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: start + 62 * DAY });
    await sandbox.delivery.idle();
    expect((await subscriptionRow(user))!.status).toBe('canceled');
    expect(await planOf(user)).toBe('free');
  });
});
