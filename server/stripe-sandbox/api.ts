/**
 * The sandbox's REST API at `/v1/…`, as Stripe answers it: Bearer secret key, form-encoded
 * parameters with Stripe's bracket notation (`items[0][price]=…`, `expand[]=…`), JSON objects,
 * `{object: 'list', data, has_more, url}` lists, Stripe's error JSON, `Request-Id` and
 * `Stripe-Version` headers and `Idempotency-Key` replays. The official `stripe` library reaches
 * it through its `host`, `port` and `protocol` options (the paths are Stripe's own: the library
 * always requests `/v1/…`, so the API sits at the server's root).
 */
import { timingSafeEqual } from 'node:crypto';
import { Hono, type Context } from 'hono';
import qs from 'qs';
import {
  STRIPE_API_VERSION,
  StripeApiError,
  stripeId,
  type StripeObject,
  type StripeSandbox,
} from './sandbox';

type Params = Record<string, unknown>;

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const int = (v: unknown): number | undefined => {
  if (v === undefined || v === '') return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? Math.trunc(n) : undefined;
};
const bool = (v: unknown): boolean | undefined =>
  v === 'true' ? true : v === 'false' ? false : undefined;
const list = <T = Params>(v: unknown): T[] =>
  Array.isArray(v) ? (v as T[]) : v && typeof v === 'object' ? (Object.values(v) as T[]) : [];
const missing = (param: string) =>
  new StripeApiError(
    400,
    'invalid_request_error',
    `Missing required param: ${param}.`,
    'parameter_missing',
    param,
  );
const meta = (v: unknown): Record<string, string> | undefined =>
  v && typeof v === 'object' ? (v as Record<string, string>) : undefined;

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function createSandboxApi(sandbox: StripeSandbox, secretKey: string): Hono {
  const app = new Hono();
  const replays = new Map<string, { status: number; body: unknown }>();

  const params = async (c: Context): Promise<Params> => {
    const query = qs.parse(new URL(c.req.url).search.slice(1), { depth: 10, arrayLimit: 200 });
    if (c.req.method !== 'POST') return query;
    const text = await c.req.text();
    return { ...query, ...qs.parse(text, { depth: 10, arrayLimit: 200 }) };
  };

  /** Replaces the named top-level id fields with their objects (`expand[]=subscription`). */
  const expand = (obj: StripeObject, p: Params): StripeObject => {
    const out = sandbox.serialize(obj);
    const where: Record<string, Parameters<StripeSandbox['get']>[0]> = {
      customer: 'customers',
      subscription: 'subscriptions',
      latest_invoice: 'invoices',
      invoice: 'invoices',
      default_payment_method: 'payment_methods',
      product: 'products',
    };
    for (const field of list<string>(p.expand)) {
      const c = where[field];
      const id = out[field];
      if (c && typeof id === 'string') {
        const found = sandbox.get(c, id);
        if (found) out[field] = sandbox.serialize(found);
      }
    }
    return out;
  };

  const listOf = (c: Context, data: StripeObject[], p: Params) => {
    const limit = Math.min(100, Math.max(1, int(p.limit) ?? 10));
    const sorted = [...data].sort((a, b) => (b.created as number) - (a.created as number));
    return {
      object: 'list',
      data: sorted.slice(0, limit).map((o) => expand(o, p)),
      has_more: sorted.length > limit,
      url: new URL(c.req.url).pathname,
    };
  };

  app.onError((err, c) => {
    if (err instanceof StripeApiError) return c.json(err.toJSON(), err.status as 400);
    console.error('[stripe-sandbox]', err);
    return c.json({ error: { type: 'api_error', message: 'An unknown error occurred' } }, 500);
  });

  app.use('*', async (c, next) => {
    c.header('Request-Id', stripeId('req', 14));
    c.header('Stripe-Version', c.req.header('stripe-version') ?? STRIPE_API_VERSION);
    const auth = c.req.header('authorization') ?? '';
    const key = /^Bearer\s+(\S+)$/i.exec(auth)?.[1] ?? '';
    if (!key || !sameSecret(key, secretKey)) {
      const shown = key
        ? `${key.slice(0, 8)}${'*'.repeat(Math.max(0, key.length - 12))}${key.slice(-4)}`
        : '';
      return c.json(
        {
          error: {
            type: 'invalid_request_error',
            message: key
              ? `Invalid API Key provided: ${shown}`
              : "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
          },
        },
        401,
      );
    }
    const idem = c.req.method === 'POST' ? c.req.header('idempotency-key') : undefined;
    const replay = idem ? replays.get(`${c.req.path} ${idem}`) : undefined;
    if (replay) {
      c.header('Idempotent-Replayed', 'true');
      return c.json(replay.body as object, replay.status as 200);
    }
    await next();
    if (idem && c.res.status < 500) {
      replays.set(`${c.req.path} ${idem}`, {
        status: c.res.status,
        body: await c.res.clone().json(),
      });
    }
  });

  // customers ---------------------------------------------------------------------------------
  app.post('/customers', async (c) => {
    const p = await params(c);
    return c.json(
      expand(
        sandbox.createCustomer({
          email: str(p.email),
          name: str(p.name),
          metadata: meta(p.metadata),
          test_clock: str(p.test_clock),
        }),
        p,
      ),
    );
  });
  app.get('/customers/:id', async (c) =>
    c.json(expand(sandbox.must('customers', 'customer', c.req.param('id')), await params(c))),
  );
  app.post('/customers/:id', async (c) => {
    const p = await params(c);
    const customer = sandbox.must('customers', 'customer', c.req.param('id'));
    if (p.email !== undefined) customer.email = str(p.email) ?? null;
    if (p.name !== undefined) customer.name = str(p.name) ?? null;
    if (p.metadata) customer.metadata = { ...(customer.metadata as object), ...meta(p.metadata) };
    const settings = p.invoice_settings as Params | undefined;
    if (settings?.default_payment_method !== undefined) {
      const pm = str(settings.default_payment_method);
      if (
        pm &&
        sandbox.must(
          'payment_methods',
          'PaymentMethod',
          pm,
          'invoice_settings[default_payment_method]',
        ).customer !== customer.id
      ) {
        throw new StripeApiError(
          400,
          'invalid_request_error',
          'The PaymentMethod provided must be attached to the customer.',
          'resource_missing',
          'invoice_settings[default_payment_method]',
        );
      }
      customer.invoice_settings = {
        ...(customer.invoice_settings as object),
        default_payment_method: pm ?? null,
      };
    }
    sandbox.put('customers', customer);
    sandbox.emit('customer.updated', customer);
    return c.json(expand(customer, p));
  });

  app.post('/payment_methods/:id/attach', async (c) => {
    const p = await params(c);
    const customer = str(p.customer);
    if (!customer) throw missing('customer');
    return c.json(sandbox.serialize(sandbox.attachPaymentMethod(c.req.param('id'), customer)));
  });
  app.get('/payment_methods/:id', (c) =>
    c.json(sandbox.serialize(sandbox.must('payment_methods', 'PaymentMethod', c.req.param('id')))),
  );

  // products, prices --------------------------------------------------------------------------
  app.post('/products', async (c) => {
    const p = await params(c);
    const name = str(p.name);
    if (!name) throw missing('name');
    return c.json(sandbox.serialize(sandbox.createProduct({ name, metadata: meta(p.metadata) })));
  });
  app.get('/products/:id', (c) =>
    c.json(sandbox.serialize(sandbox.must('products', 'product', c.req.param('id')))),
  );
  app.post('/prices', async (c) => {
    const p = await params(c);
    const recurring = p.recurring as Params | undefined;
    const amount = int(p.unit_amount);
    if (amount === undefined) throw missing('unit_amount');
    if (!recurring)
      throw new StripeApiError(
        400,
        'invalid_request_error',
        'The sandbox supports recurring prices only.',
        'parameter_missing',
        'recurring',
      );
    return c.json(
      expand(
        sandbox.createPrice({
          product: str(p.product) ?? '',
          currency: str(p.currency) ?? 'eur',
          unit_amount: amount,
          recurring: {
            interval: str(recurring.interval) ?? 'month',
            interval_count: int(recurring.interval_count) ?? 1,
          },
          lookup_key: str(p.lookup_key),
          metadata: meta(p.metadata),
        }),
        p,
      ),
    );
  });
  app.get('/prices', async (c) => {
    const p = await params(c);
    const keys = list<string>(p.lookup_keys);
    const active = bool(p.active);
    const product = str(p.product);
    const data = sandbox
      .all('prices')
      .filter((x) => (keys.length ? keys.includes(x.lookup_key as string) : true))
      .filter((x) => (active === undefined ? true : x.active === active))
      .filter((x) => (product ? x.product === product : true));
    return c.json(listOf(c, data, p));
  });
  app.get('/prices/:id', async (c) =>
    c.json(expand(sandbox.must('prices', 'price', c.req.param('id')), await params(c))),
  );

  // coupons, promotion codes ------------------------------------------------------------------
  app.post('/coupons', async (c) => {
    const p = await params(c);
    const duration = (str(p.duration) ?? 'once') as 'once' | 'repeating' | 'forever';
    return c.json(
      sandbox.serialize(
        sandbox.createCoupon({
          id: str(p.id),
          name: str(p.name),
          percent_off: p.percent_off !== undefined ? Number(p.percent_off) : null,
          amount_off: int(p.amount_off) ?? null,
          currency: str(p.currency),
          duration,
          duration_in_months: int(p.duration_in_months),
          max_redemptions: int(p.max_redemptions),
          redeem_by: int(p.redeem_by),
        }),
      ),
    );
  });
  app.get('/coupons/:id', (c) => {
    const coupon = sandbox.must('coupons', 'coupon', c.req.param('id'));
    return c.json({
      ...sandbox.serialize(coupon),
      valid: sandbox.couponValid(coupon, sandbox.now()),
    });
  });
  app.post('/promotion_codes', async (c) => {
    const p = await params(c);
    const coupon = str((p.promotion as Params | undefined)?.coupon) ?? str(p.coupon);
    if (!coupon) throw missing('promotion[coupon]');
    return c.json(
      sandbox.serialize(
        sandbox.createPromotionCode({
          code: str(p.code),
          coupon,
          active: bool(p.active),
          expires_at: int(p.expires_at),
          max_redemptions: int(p.max_redemptions),
        }),
      ),
    );
  });
  app.get('/promotion_codes', async (c) => {
    const p = await params(c);
    const code = str(p.code)?.toLowerCase();
    const active = bool(p.active);
    const coupon = str(p.coupon);
    const data = sandbox
      .all('promotion_codes')
      .filter((x) => (code ? (x.code as string).toLowerCase() === code : true))
      .filter((x) => (active === undefined ? true : x.active === active))
      .filter((x) => (coupon ? (x.promotion as { coupon: string }).coupon === coupon : true));
    return c.json(listOf(c, data, p));
  });
  app.get('/promotion_codes/:id', (c) =>
    c.json(sandbox.serialize(sandbox.must('promotion_codes', 'promotion code', c.req.param('id')))),
  );
  app.post('/promotion_codes/:id', async (c) => {
    const p = await params(c);
    const promo = sandbox.must('promotion_codes', 'promotion code', c.req.param('id'));
    const active = bool(p.active);
    if (active !== undefined) promo.active = active;
    if (p.metadata) promo.metadata = { ...(promo.metadata as object), ...meta(p.metadata) };
    return c.json(sandbox.serialize(sandbox.put('promotion_codes', promo)));
  });

  // checkout ----------------------------------------------------------------------------------
  app.post('/checkout/sessions', async (c) => {
    const p = await params(c);
    const session = sandbox.createCheckoutSession({
      mode: str(p.mode),
      customer: str(p.customer),
      customer_email: str(p.customer_email),
      client_reference_id: str(p.client_reference_id),
      line_items: list<{ price?: string; quantity?: string }>(p.line_items),
      discounts: list<{ coupon?: string; promotion_code?: string }>(p.discounts),
      success_url: str(p.success_url),
      cancel_url: str(p.cancel_url),
      metadata: meta(p.metadata),
      subscription_data: { metadata: meta((p.subscription_data as Params | undefined)?.metadata) },
    });
    return c.json(expand(session, p));
  });
  app.get('/checkout/sessions/:id', async (c) =>
    c.json(
      expand(
        sandbox.must('checkout_sessions', 'checkout session', c.req.param('id')),
        await params(c),
      ),
    ),
  );
  app.post('/checkout/sessions/:id/expire', async (c) =>
    c.json(expand(sandbox.expireCheckoutSession(c.req.param('id')), await params(c))),
  );

  // subscriptions, invoices -------------------------------------------------------------------
  app.get('/subscriptions', async (c) => {
    const p = await params(c);
    const customer = str(p.customer);
    const status = str(p.status);
    const data = sandbox
      .all('subscriptions')
      .filter((s) => (customer ? s.customer === customer : true))
      .filter((s) =>
        status === 'all' ? true : status ? s.status === status : s.status !== 'canceled',
      );
    return c.json(listOf(c, data, p));
  });
  app.get('/subscriptions/:id', async (c) =>
    c.json(
      expand(sandbox.must('subscriptions', 'subscription', c.req.param('id')), await params(c)),
    ),
  );
  app.post('/subscriptions/:id', async (c) => {
    const p = await params(c);
    const items = list<Params>(p.items).map((i) => ({
      id: str(i.id),
      price: str(i.price),
      quantity: int(i.quantity),
    }));
    const proration = str(p.proration_behavior) as
      'create_prorations' | 'always_invoice' | 'none' | undefined;
    const sub = sandbox.updateSubscription(c.req.param('id'), {
      cancel_at_period_end: bool(p.cancel_at_period_end),
      items,
      proration_behavior: proration,
      default_payment_method:
        p.default_payment_method === undefined
          ? undefined
          : (str(p.default_payment_method) ?? null),
      metadata: meta(p.metadata),
    });
    return c.json(expand(sub, p));
  });
  app.delete('/subscriptions/:id', async (c) =>
    c.json(expand(sandbox.cancelSubscription(c.req.param('id')), await params(c))),
  );
  app.get('/invoices/:id', async (c) =>
    c.json(expand(sandbox.must('invoices', 'invoice', c.req.param('id')), await params(c))),
  );
  app.get('/invoices', async (c) => {
    const p = await params(c);
    const customer = str(p.customer);
    const subscription = str(p.subscription);
    const data = sandbox
      .all('invoices')
      .filter((i) => (customer ? i.customer === customer : true))
      .filter((i) =>
        subscription
          ? (i.parent as { subscription_details: { subscription: string } }).subscription_details
              .subscription === subscription
          : true,
      );
    return c.json(listOf(c, data, p));
  });

  // events, test clocks -----------------------------------------------------------------------
  app.get('/events', async (c) => {
    const p = await params(c);
    const type = str(p.type);
    return c.json(
      listOf(
        c,
        sandbox.all('events').filter((e) => (type ? e.type === type : true)),
        p,
      ),
    );
  });
  app.get('/events/:id', (c) =>
    c.json(sandbox.serialize(sandbox.must('events', 'event', c.req.param('id')))),
  );
  app.post('/test_helpers/test_clocks', async (c) => {
    const p = await params(c);
    const frozen = int(p.frozen_time);
    if (frozen === undefined) throw missing('frozen_time');
    return c.json(
      sandbox.serialize(sandbox.createTestClock({ frozen_time: frozen, name: str(p.name) })),
    );
  });
  app.get('/test_helpers/test_clocks/:id', (c) =>
    c.json(sandbox.serialize(sandbox.must('test_clocks', 'test clock', c.req.param('id')))),
  );
  app.post('/test_helpers/test_clocks/:id/advance', async (c) => {
    const p = await params(c);
    const frozen = int(p.frozen_time);
    if (frozen === undefined) throw missing('frozen_time');
    return c.json(sandbox.serialize(sandbox.advanceTestClock(c.req.param('id'), frozen)));
  });

  app.all('*', (c) => {
    const err = new StripeApiError(
      404,
      'invalid_request_error',
      `Unrecognized request URL (${c.req.method}: ${new URL(c.req.url).pathname}). The payment sandbox implements only what Soundloft uses; see docs/payments.md.`,
    );
    return c.json(err.toJSON(), 404);
  });
  return app;
}
