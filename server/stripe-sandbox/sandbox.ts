/**
 * The payment sandbox's state and billing rules: a development stand-in for the part of Stripe
 * Soundloft uses (customers, products and prices, coupons and promotion codes, Checkout Sessions
 * in subscription mode, subscriptions with proration and cancel at period end, invoices, test
 * clocks, events). Objects have Stripe's shapes for API version `STRIPE_API_VERSION` (the
 * installed `stripe` library's), so the official library works against it unchanged. No money
 * moves. See docs/payments.md ("The sandbox") for what is and is not modelled.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export const STRIPE_API_VERSION = '2026-10-28.endive';

export type StripeObject = Record<string, unknown> & { id: string; object: string };

/** Stripe's error JSON (`{error: {type, code, message, param}}`) with its HTTP status. */
export class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: 'invalid_request_error' | 'card_error' | 'api_error' | 'authentication_error',
    message: string,
    readonly code?: string,
    readonly param?: string,
    readonly declineCode?: string,
  ) {
    super(message);
  }
  toJSON() {
    return {
      error: {
        type: this.type,
        message: this.message,
        ...(this.code
          ? {
              code: this.code,
              doc_url: `https://stripe.com/docs/error-codes/${this.code.replace(/_/g, '-')}`,
            }
          : {}),
        ...(this.param ? { param: this.param } : {}),
        ...(this.declineCode ? { decline_code: this.declineCode } : {}),
      },
    };
  }
}

export function noSuch(kind: string, id: string, param = 'id'): StripeApiError {
  return new StripeApiError(
    404,
    'invalid_request_error',
    `No such ${kind}: '${id}'`,
    'resource_missing',
    param,
  );
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export function stripeId(prefix: string, length = 24): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const b of bytes) out += ALPHABET[b % ALPHABET.length];
  return `${prefix}_${out}`;
}

/** `anchor` + n calendar months, the day clamped to the month's end (as Stripe bills). */
export function addMonths(anchor: number, months: number): number {
  const d = new Date(anchor * 1000);
  const day = d.getUTCDate();
  const target = new Date(
    Date.UTC(
      d.getUTCFullYear(),
      d.getUTCMonth() + months,
      1,
      d.getUTCHours(),
      d.getUTCMinutes(),
      d.getUTCSeconds(),
    ),
  );
  const last = new Date(
    Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0),
  ).getUTCDate();
  target.setUTCDate(Math.min(day, last));
  return Math.floor(target.getTime() / 1000);
}

/** What a test card or test PaymentMethod token does (Stripe's documented test numbers). */
export type CardBehaviour =
  'succeeds' | 'declined' | 'insufficient_funds' | 'requires_authentication' | 'attach_then_fail';

export const TEST_CARDS: Record<string, { brand: string; behaviour: CardBehaviour }> = {
  '4242424242424242': { brand: 'visa', behaviour: 'succeeds' },
  '4000056655665556': { brand: 'visa', behaviour: 'succeeds' },
  '5555555555554444': { brand: 'mastercard', behaviour: 'succeeds' },
  '4000000000000002': { brand: 'visa', behaviour: 'declined' },
  '4000000000009995': { brand: 'visa', behaviour: 'insufficient_funds' },
  '4000002500003155': { brand: 'visa', behaviour: 'requires_authentication' },
  '4000000000000341': { brand: 'visa', behaviour: 'attach_then_fail' },
};

export const TEST_PAYMENT_METHOD_TOKENS: Record<string, string> = {
  pm_card_visa: '4242424242424242',
  pm_card_mastercard: '5555555555554444',
  pm_card_chargeDeclined: '4000000000000002',
  pm_card_chargeDeclinedInsufficientFunds: '4000000000009995',
  pm_card_authenticationRequired: '4000002500003155',
  pm_card_chargeCustomerFail: '4000000000000341',
};

export const DECLINE_MESSAGES = {
  declined: 'Your card was declined.',
  insufficient_funds: 'Your card has insufficient funds.',
  authentication_failed:
    'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
};

export interface SandboxEndpoint {
  url: string;
  secret: string;
}

export type EventListener = (event: StripeObject) => void;

type Collections =
  | 'customers'
  | 'products'
  | 'prices'
  | 'coupons'
  | 'promotion_codes'
  | 'checkout_sessions'
  | 'subscriptions'
  | 'invoices'
  | 'payment_methods'
  | 'discounts'
  | 'test_clocks'
  | 'events';

const COLLECTIONS: Collections[] = [
  'customers',
  'products',
  'prices',
  'coupons',
  'promotion_codes',
  'checkout_sessions',
  'subscriptions',
  'invoices',
  'payment_methods',
  'discounts',
  'test_clocks',
  'events',
];

/** Stripe Billing's dunning, condensed: a past_due subscription still unpaid at its next renewal is canceled. */
const PAST_DUE_CANCELS_AT_NEXT_RENEWAL = true;

export interface SandboxOptions {
  /** Where the hosted pages are served (checkout session `url`s point here). */
  publicUrl: string;
  /** JSON file the state is kept in between starts; null keeps it in memory. */
  persistFile?: string | null;
  /** The real clock (tests may replace it). Seconds. */
  now?: () => number;
}

export class StripeSandbox {
  /** Where the hosted pages are (checkout session `url`s); settable once the port is known. */
  publicUrl: string;
  private readonly persistFile: string | null;
  private readonly realNow: () => number;
  private readonly store = new Map<Collections, Map<string, StripeObject>>();
  private readonly listeners = new Set<EventListener>();
  private saveScheduled = false;

  constructor(options: SandboxOptions) {
    this.publicUrl = options.publicUrl.replace(/\/+$/, '');
    this.persistFile = options.persistFile ?? null;
    this.realNow = options.now ?? (() => Math.floor(Date.now() / 1000));
    for (const c of COLLECTIONS) this.store.set(c, new Map());
    this.load();
    this.seed();
  }

  // ---------------------------------------------------------------------------------------------
  // storage

  private col(c: Collections): Map<string, StripeObject> {
    const found = this.store.get(c);
    if (!found) throw new Error(`unknown collection ${c}`);
    return found;
  }
  get(c: Collections, id: string): StripeObject | undefined {
    return this.col(c).get(id);
  }
  all(c: Collections): StripeObject[] {
    return [...this.col(c).values()];
  }
  put<T extends StripeObject>(c: Collections, obj: T): T {
    this.col(c).set(obj.id, obj);
    this.scheduleSave();
    return obj;
  }
  must(c: Collections, kind: string, id: unknown, param = 'id'): StripeObject {
    const found = typeof id === 'string' ? this.get(c, id) : undefined;
    if (!found) throw noSuch(kind, String(id ?? ''), param);
    return found;
  }

  private load() {
    if (!this.persistFile || !existsSync(this.persistFile)) return;
    const data = JSON.parse(readFileSync(this.persistFile, 'utf8')) as Record<
      string,
      StripeObject[]
    >;
    for (const c of COLLECTIONS) for (const o of data[c] ?? []) this.col(c).set(o.id, o);
  }
  private scheduleSave() {
    if (!this.persistFile || this.saveScheduled) return;
    this.saveScheduled = true;
    setImmediate(() => {
      this.saveScheduled = false;
      this.saveNow();
    });
  }
  saveNow() {
    if (!this.persistFile) return;
    const data: Record<string, StripeObject[]> = {};
    for (const c of COLLECTIONS) data[c] = this.all(c);
    mkdirSync(dirname(this.persistFile), { recursive: true });
    const tmp = `${this.persistFile}.tmp`;
    writeFileSync(tmp, JSON.stringify(data));
    renameSync(tmp, this.persistFile);
  }

  /** Products and prices with the lookup keys the functions ask for, and the demo promo codes. */
  private seed() {
    const plans = [
      { key: 'soundloft_basic_monthly', name: 'Soundloft Basic', plan: 'basic', amount: 499 },
      { key: 'soundloft_premium_monthly', name: 'Soundloft Premium', plan: 'premium', amount: 999 },
    ];
    for (const p of plans) {
      if (this.all('prices').some((x) => x.lookup_key === p.key)) continue;
      const product = this.createProduct({ name: p.name, metadata: { plan_id: p.plan } });
      this.createPrice({
        product: product.id,
        currency: 'eur',
        unit_amount: p.amount,
        recurring: { interval: 'month', interval_count: 1 },
        lookup_key: p.key,
        metadata: { plan_id: p.plan },
      });
    }
    if (!this.get('coupons', 'WELCOME50')) {
      this.createCoupon({
        id: 'WELCOME50',
        name: '50% off the first month',
        percent_off: 50,
        duration: 'once',
      });
      this.createPromotionCode({ code: 'WELCOME50', coupon: 'WELCOME50' });
    }
  }

  // ---------------------------------------------------------------------------------------------
  // time

  now(): number {
    return this.realNow();
  }
  /** The time a customer lives in: their test clock's frozen time, else now. */
  timeFor(customerId: unknown): number {
    const customer = typeof customerId === 'string' ? this.get('customers', customerId) : undefined;
    const clock =
      typeof customer?.test_clock === 'string'
        ? this.get('test_clocks', customer.test_clock)
        : undefined;
    return clock ? (clock.frozen_time as number) : this.now();
  }

  // ---------------------------------------------------------------------------------------------
  // events

  onEvent(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(type: string, object: StripeObject, previous?: Record<string, unknown>): StripeObject {
    const customer =
      typeof object.customer === 'string'
        ? object.customer
        : object.object === 'customer'
          ? object.id
          : null;
    const event: StripeObject = {
      id: stripeId('evt'),
      object: 'event',
      api_version: STRIPE_API_VERSION,
      created: this.timeFor(customer),
      data: {
        object: this.serialize(object),
        ...(previous && Object.keys(previous).length ? { previous_attributes: previous } : {}),
      },
      livemode: false,
      pending_webhooks: this.listeners.size,
      request: { id: null, idempotency_key: null },
      type,
    };
    this.put('events', event);
    for (const l of this.listeners) l(event);
    return event;
  }

  /** The object as the API answers it: internal `_fields` removed, nested objects copied. */
  serialize(obj: StripeObject): StripeObject {
    return JSON.parse(
      JSON.stringify(obj, (key, value: unknown) => (key.startsWith('_') ? undefined : value)),
    ) as StripeObject;
  }

  // ---------------------------------------------------------------------------------------------
  // catalogue

  createProduct(p: { name: string; metadata?: Record<string, string> }): StripeObject {
    return this.put('products', {
      id: stripeId('prod', 14),
      object: 'product',
      active: true,
      created: this.now(),
      description: null,
      livemode: false,
      metadata: p.metadata ?? {},
      name: p.name,
      type: 'service',
      updated: this.now(),
    });
  }

  createPrice(p: {
    product: string;
    currency: string;
    unit_amount: number;
    recurring: { interval: string; interval_count: number };
    lookup_key?: string | null;
    metadata?: Record<string, string>;
  }): StripeObject {
    this.must('products', 'product', p.product, 'product');
    return this.put('prices', {
      id: stripeId('price'),
      object: 'price',
      active: true,
      billing_scheme: 'per_unit',
      created: this.now(),
      currency: p.currency,
      custom_unit_amount: null,
      livemode: false,
      lookup_key: p.lookup_key ?? null,
      metadata: p.metadata ?? {},
      nickname: null,
      product: p.product,
      recurring: { ...p.recurring, meter: null, trial_period_days: null, usage_type: 'licensed' },
      tax_behavior: 'unspecified',
      tiers_mode: null,
      transform_quantity: null,
      type: 'recurring',
      unit_amount: p.unit_amount,
      unit_amount_decimal: String(p.unit_amount),
    });
  }

  createCoupon(p: {
    id?: string;
    name?: string | null;
    percent_off?: number | null;
    amount_off?: number | null;
    currency?: string | null;
    duration: 'once' | 'repeating' | 'forever';
    duration_in_months?: number | null;
    max_redemptions?: number | null;
    redeem_by?: number | null;
  }): StripeObject {
    const id = p.id ?? stripeId('', 8).slice(1);
    if (this.get('coupons', id)) {
      throw new StripeApiError(
        400,
        'invalid_request_error',
        'Coupon already exists.',
        'resource_already_exists',
        'id',
      );
    }
    if (((p.percent_off ?? null) === null) === ((p.amount_off ?? null) === null)) {
      throw new StripeApiError(
        400,
        'invalid_request_error',
        'You must pass exactly one of percent_off or amount_off.',
        'parameter_missing',
        'percent_off',
      );
    }
    if (typeof p.percent_off === 'number' && !(p.percent_off > 0 && p.percent_off <= 100)) {
      throw new StripeApiError(
        400,
        'invalid_request_error',
        'Invalid percent_off: must be between 0 and 100.',
        'parameter_invalid_integer',
        'percent_off',
      );
    }
    if (p.duration === 'repeating' && !(p.duration_in_months && p.duration_in_months > 0)) {
      throw new StripeApiError(
        400,
        'invalid_request_error',
        'duration_in_months is required when duration is repeating.',
        'parameter_missing',
        'duration_in_months',
      );
    }
    if (typeof p.redeem_by === 'number' && p.redeem_by <= this.now()) {
      throw new StripeApiError(
        400,
        'invalid_request_error',
        'Invalid redeem_by: must be in the future.',
        'parameter_invalid_integer',
        'redeem_by',
      );
    }
    return this.put('coupons', {
      id,
      object: 'coupon',
      amount_off: p.amount_off ?? null,
      created: this.now(),
      currency: typeof p.amount_off === 'number' ? (p.currency ?? 'eur') : null,
      duration: p.duration,
      duration_in_months: p.duration === 'repeating' ? (p.duration_in_months ?? null) : null,
      livemode: false,
      max_redemptions: p.max_redemptions ?? null,
      metadata: {},
      name: p.name ?? null,
      percent_off: p.percent_off ?? null,
      redeem_by: p.redeem_by ?? null,
      times_redeemed: 0,
      valid: true,
    });
  }

  /** A coupon's `valid`, recomputed (redeem_by passed, max_redemptions reached). */
  couponValid(coupon: StripeObject, at: number): boolean {
    if (coupon.valid === false) return false;
    if (typeof coupon.redeem_by === 'number' && coupon.redeem_by <= at) return false;
    if (
      typeof coupon.max_redemptions === 'number' &&
      (coupon.times_redeemed as number) >= coupon.max_redemptions
    )
      return false;
    return true;
  }

  createPromotionCode(p: {
    code?: string;
    coupon: string;
    active?: boolean;
    expires_at?: number | null;
    max_redemptions?: number | null;
  }): StripeObject {
    this.must('coupons', 'coupon', p.coupon, 'promotion[coupon]');
    const code = p.code ?? stripeId('', 8).slice(1).toUpperCase();
    if (!/^[a-zA-Z0-9]{1,500}$/.test(code)) {
      throw new StripeApiError(
        400,
        'invalid_request_error',
        'Invalid code: may only contain alphanumeric characters.',
        'parameter_invalid_string',
        'code',
      );
    }
    const clash = this.all('promotion_codes').some(
      (x) => x.active && (x.code as string).toLowerCase() === code.toLowerCase(),
    );
    if (clash) {
      throw new StripeApiError(
        400,
        'invalid_request_error',
        'An active promotion code with `code: ' + code + '` already exists.',
        'resource_already_exists',
        'code',
      );
    }
    return this.put('promotion_codes', {
      id: stripeId('promo'),
      object: 'promotion_code',
      active: p.active ?? true,
      code,
      created: this.now(),
      customer: null,
      customer_account: null,
      expires_at: p.expires_at ?? null,
      livemode: false,
      max_redemptions: p.max_redemptions ?? null,
      metadata: {},
      promotion: { coupon: p.coupon, type: 'coupon' },
      restrictions: {
        first_time_transaction: false,
        minimum_amount: null,
        minimum_amount_currency: null,
      },
      times_redeemed: 0,
    });
  }

  /** Checks a promotion code for use at `at`; throws Stripe's error when it cannot be used. */
  redeemablePromotionCode(id: string, at: number, param: string): StripeObject {
    const promo = this.must('promotion_codes', 'promotion code', id, param);
    const coupon = this.get('coupons', (promo.promotion as { coupon: string }).coupon);
    const expired = typeof promo.expires_at === 'number' && promo.expires_at <= at;
    const exhausted =
      typeof promo.max_redemptions === 'number' &&
      (promo.times_redeemed as number) >= promo.max_redemptions;
    if (!promo.active || expired || exhausted || !coupon || !this.couponValid(coupon, at)) {
      throw new StripeApiError(
        400,
        'invalid_request_error',
        `This promotion code cannot be redeemed because the associated coupon is no longer valid.`,
        'coupon_expired',
        param,
      );
    }
    return promo;
  }

  redeemableCoupon(id: string, at: number, param: string): StripeObject {
    const coupon = this.must('coupons', 'coupon', id, param);
    if (!this.couponValid(coupon, at)) {
      throw new StripeApiError(
        400,
        'invalid_request_error',
        `Coupon expired: ${id}`,
        'coupon_expired',
        param,
      );
    }
    return coupon;
  }

  // ---------------------------------------------------------------------------------------------
  // customers and payment methods

  createCustomer(p: {
    email?: string | null;
    name?: string | null;
    metadata?: Record<string, string>;
    test_clock?: string | null;
  }): StripeObject {
    if (p.test_clock) this.must('test_clocks', 'test clock', p.test_clock, 'test_clock');
    return this.put('customers', {
      id: stripeId('cus', 14),
      object: 'customer',
      address: null,
      balance: 0,
      created: p.test_clock ? this.timeFor(null) : this.now(),
      currency: null,
      default_source: null,
      delinquent: false,
      description: null,
      discount: null,
      email: p.email ?? null,
      invoice_prefix: stripeId('', 8).slice(1).toUpperCase(),
      invoice_settings: {
        custom_fields: null,
        default_payment_method: null,
        footer: null,
        rendering_options: null,
      },
      livemode: false,
      metadata: p.metadata ?? {},
      name: p.name ?? null,
      phone: null,
      preferred_locales: [],
      shipping: null,
      tax_exempt: 'none',
      test_clock: p.test_clock ?? null,
    });
  }

  /** A card PaymentMethod from a test card number or a `pm_card_*` token. */
  createCardPaymentMethod(
    number: string,
    customer: string | null,
    details: {
      exp_month?: number;
      exp_year?: number;
      name?: string | null;
      email?: string | null;
    } = {},
  ): StripeObject {
    const card = TEST_CARDS[number];
    const brand = card?.brand ?? (number.startsWith('5') ? 'mastercard' : 'visa');
    return this.put('payment_methods', {
      id: stripeId('pm'),
      object: 'payment_method',
      allow_redisplay: 'unspecified',
      billing_details: {
        address: null,
        email: details.email ?? null,
        name: details.name ?? null,
        phone: null,
        tax_id: null,
      },
      card: {
        brand,
        country: 'US',
        exp_month: details.exp_month ?? 12,
        exp_year: details.exp_year ?? new Date().getUTCFullYear() + 3,
        funding: 'credit',
        last4: number.slice(-4),
      },
      created: this.now(),
      customer,
      livemode: false,
      metadata: {},
      type: 'card',
      _behaviour: card?.behaviour ?? 'succeeds',
    });
  }

  attachPaymentMethod(idOrToken: string, customerId: string): StripeObject {
    this.must('customers', 'customer', customerId, 'customer');
    const token = TEST_PAYMENT_METHOD_TOKENS[idOrToken];
    if (token) return this.createCardPaymentMethod(token, customerId);
    const pm = this.must('payment_methods', 'PaymentMethod', idOrToken);
    pm.customer = customerId;
    return this.put('payment_methods', pm);
  }

  /** Charges a payment method off-session (renewals, prorations): true when it is paid. */
  private charge(pmId: unknown): boolean {
    const pm = typeof pmId === 'string' ? this.get('payment_methods', pmId) : undefined;
    if (!pm) return false;
    const b = pm._behaviour as CardBehaviour;
    return b === 'succeeds' || b === 'requires_authentication';
  }

  // ---------------------------------------------------------------------------------------------
  // checkout

  createCheckoutSession(p: {
    mode?: string;
    customer?: string | null;
    customer_email?: string | null;
    client_reference_id?: string | null;
    line_items?: { price?: string; quantity?: string | number }[];
    discounts?: { coupon?: string; promotion_code?: string }[];
    success_url?: string;
    cancel_url?: string;
    metadata?: Record<string, string>;
    subscription_data?: { metadata?: Record<string, string> };
  }): StripeObject {
    if (p.mode !== 'subscription') {
      throw new StripeApiError(
        400,
        'invalid_request_error',
        'The sandbox supports mode=subscription only.',
        'parameter_invalid_string',
        'mode',
      );
    }
    if (!p.success_url) {
      throw new StripeApiError(
        400,
        'invalid_request_error',
        'Missing required param: success_url.',
        'parameter_missing',
        'success_url',
      );
    }
    if (p.customer) this.must('customers', 'customer', p.customer, 'customer');
    const items = p.line_items ?? [];
    if (items.length !== 1) {
      throw new StripeApiError(
        400,
        'invalid_request_error',
        'The sandbox supports exactly one line item.',
        'parameter_invalid_integer',
        'line_items',
      );
    }
    const price = this.must('prices', 'price', items[0]?.price, 'line_items[0][price]');
    const quantity = Number(items[0]?.quantity ?? 1) || 1;
    const at = this.timeFor(p.customer);
    const discounts = (p.discounts ?? []).map((d, i) => {
      if (d.promotion_code) {
        const promo = this.redeemablePromotionCode(
          d.promotion_code,
          at,
          `discounts[${i}][promotion_code]`,
        );
        return { promotion_code: promo.id, coupon: (promo.promotion as { coupon: string }).coupon };
      }
      const coupon = this.redeemableCoupon(d.coupon ?? '', at, `discounts[${i}][coupon]`);
      return { promotion_code: null, coupon: coupon.id };
    });
    if (discounts.length > 1) {
      throw new StripeApiError(
        400,
        'invalid_request_error',
        'You may only specify one discount.',
        'parameter_invalid_integer',
        'discounts',
      );
    }
    const subtotal = (price.unit_amount as number) * quantity;
    const discount = discounts[0]
      ? this.discountAmount(this.must('coupons', 'coupons', discounts[0].coupon), subtotal)
      : 0;
    const id = stripeId('cs_test', 58);
    const customer = p.customer ? this.get('customers', p.customer) : undefined;
    return this.put('checkout_sessions', {
      id,
      object: 'checkout.session',
      allow_promotion_codes: null,
      amount_subtotal: subtotal,
      amount_total: subtotal - discount,
      billing_address_collection: null,
      cancel_url: p.cancel_url ?? null,
      client_reference_id: p.client_reference_id ?? null,
      client_secret: null,
      created: at,
      currency: price.currency,
      customer: p.customer ?? null,
      customer_creation: p.customer ? null : 'always',
      customer_details: customer
        ? {
            email: customer.email,
            name: customer.name,
            phone: null,
            address: null,
            tax_exempt: 'none',
            tax_ids: [],
          }
        : null,
      customer_email: p.customer_email ?? null,
      discounts: discounts.map((d) =>
        d.promotion_code ? { promotion_code: d.promotion_code } : { coupon: d.coupon },
      ),
      expires_at: at + 24 * 3600,
      invoice: null,
      livemode: false,
      locale: null,
      metadata: p.metadata ?? {},
      mode: 'subscription',
      payment_intent: null,
      payment_method_types: ['card'],
      payment_status: 'unpaid',
      setup_intent: null,
      status: 'open',
      submit_type: null,
      subscription: null,
      success_url: p.success_url,
      total_details: { amount_discount: discount, amount_shipping: 0, amount_tax: 0 },
      ui_mode: 'hosted',
      url: `${this.publicUrl}/_stripe/c/pay/${id}`,
      _price: price.id,
      _quantity: quantity,
      _discount: discounts[0] ?? null,
      _subscription_metadata: p.subscription_data?.metadata ?? {},
    });
  }

  /** The session's line item price (for the hosted page). */
  sessionPrice(session: StripeObject): { price: StripeObject; product: StripeObject } {
    const price = this.must('prices', 'prices', session._price as string);
    return { price, product: this.must('products', 'products', price.product as string) };
  }

  /** Stripe's redirect target: `{CHECKOUT_SESSION_ID}` in success_url replaced by the id. */
  successRedirect(session: StripeObject): string {
    return (session.success_url as string).replace(/\{CHECKOUT_SESSION_ID\}/g, session.id);
  }

  private discountAmount(coupon: StripeObject, amount: number): number {
    if (typeof coupon.percent_off === 'number')
      return Math.round((amount * coupon.percent_off) / 100);
    return Math.min(amount, (coupon.amount_off as number) ?? 0);
  }

  /**
   * Pays an open session with a card from the hosted page: creates the customer (if needed),
   * the subscription and its first invoice, and emits the events Stripe emits. Throws a
   * card_error for a declined card (the session stays open, nothing else changes).
   */
  completeCheckout(
    sessionId: string,
    card: {
      number: string;
      exp_month?: number;
      exp_year?: number;
      name?: string | null;
      email?: string | null;
    },
    authenticated = false,
  ): StripeObject {
    const session = this.must('checkout_sessions', 'checkout session', sessionId);
    if (session.status !== 'open') {
      throw new StripeApiError(
        400,
        'invalid_request_error',
        'This Checkout Session is no longer active.',
        'checkout_session_inactive',
      );
    }
    const behaviour =
      TEST_CARDS[card.number]?.behaviour ?? (/^\d{13,19}$/.test(card.number) ? 'succeeds' : null);
    if (behaviour === null) {
      throw new StripeApiError(
        402,
        'card_error',
        'Your card number is incorrect.',
        'incorrect_number',
      );
    }
    if (behaviour === 'declined' || behaviour === 'attach_then_fail') {
      throw new StripeApiError(
        402,
        'card_error',
        DECLINE_MESSAGES.declined,
        'card_declined',
        undefined,
        'generic_decline',
      );
    }
    if (behaviour === 'insufficient_funds') {
      throw new StripeApiError(
        402,
        'card_error',
        DECLINE_MESSAGES.insufficient_funds,
        'card_declined',
        undefined,
        'insufficient_funds',
      );
    }
    if (behaviour === 'requires_authentication' && !authenticated) {
      throw new StripeApiError(
        402,
        'card_error',
        'authentication_required',
        'authentication_required',
      );
    }

    let customer = session.customer ? this.get('customers', session.customer as string) : undefined;
    if (!customer) {
      customer = this.createCustomer({
        email: card.email ?? (session.customer_email as string | null),
        name: card.name ?? null,
      });
      this.emit('customer.created', customer);
    }
    const pm = this.createCardPaymentMethod(card.number, customer.id, card);
    const at = this.timeFor(customer.id);
    const price = this.must('prices', 'prices', session._price as string);
    const subId = stripeId('sub');
    const itemId = stripeId('si', 14);
    const discountInfo = session._discount as {
      coupon: string;
      promotion_code: string | null;
    } | null;
    let discountIds: string[] = [];
    if (discountInfo) {
      const coupon = this.must('coupons', 'coupons', discountInfo.coupon);
      coupon.times_redeemed = (coupon.times_redeemed as number) + 1;
      this.put('coupons', coupon);
      if (discountInfo.promotion_code) {
        const promo = this.must('promotion_codes', 'promotion_codes', discountInfo.promotion_code);
        promo.times_redeemed = (promo.times_redeemed as number) + 1;
        this.put('promotion_codes', promo);
      }
      const months =
        coupon.duration === 'once'
          ? 1
          : coupon.duration === 'repeating'
            ? (coupon.duration_in_months as number)
            : null;
      const discount = this.put('discounts', {
        id: stripeId('di'),
        object: 'discount',
        checkout_session: session.id,
        customer: customer.id,
        customer_account: null,
        end: months === null ? null : addMonths(at, months),
        invoice: null,
        invoice_item: null,
        promotion_code: discountInfo.promotion_code,
        source: { coupon: coupon.id, type: 'coupon' },
        start: at,
        subscription: subId,
        subscription_item: null,
      });
      discountIds = [discount.id];
    }
    const end = addMonths(at, 1);
    const subscription = this.put('subscriptions', {
      id: subId,
      object: 'subscription',
      application: null,
      billing_cycle_anchor: at,
      cancel_at: null,
      cancel_at_period_end: false,
      canceled_at: null,
      cancellation_details: { comment: null, feedback: null, reason: null },
      collection_method: 'charge_automatically',
      created: at,
      currency: price.currency,
      customer: customer.id,
      default_payment_method: pm.id,
      description: null,
      discounts: discountIds,
      ended_at: null,
      items: {
        object: 'list',
        data: [this.subscriptionItem(itemId, subId, price, session._quantity as number, at, end)],
        has_more: false,
        total_count: 1,
        url: `/v1/subscription_items?subscription=${subId}`,
      },
      latest_invoice: null,
      livemode: false,
      metadata: (session._subscription_metadata as Record<string, string>) ?? {},
      pending_update: null,
      schedule: null,
      start_date: at,
      status: 'active',
      test_clock: customer.test_clock ?? null,
      trial_end: null,
      trial_start: null,
      _pending_proration: 0,
    });
    const invoice = this.createInvoice(subscription, 'subscription_create', at, end, true);
    session.status = 'complete';
    session.payment_status =
      invoice.amount_due === 0 && session.amount_total === 0 ? 'no_payment_required' : 'paid';
    session.customer = customer.id;
    session.subscription = subId;
    session.invoice = invoice.id;
    session.customer_details = {
      email: customer.email,
      name: card.name ?? customer.name,
      phone: null,
      address: null,
      tax_exempt: 'none',
      tax_ids: [],
    };
    this.put('checkout_sessions', session);
    this.emit('customer.subscription.created', subscription);
    this.emit('invoice.paid', invoice);
    this.emit('checkout.session.completed', session);
    return session;
  }

  expireCheckoutSession(id: string): StripeObject {
    const session = this.must('checkout_sessions', 'checkout session', id);
    if (session.status !== 'open') {
      throw new StripeApiError(
        400,
        'invalid_request_error',
        'Only Checkout Sessions with a status in ["open"] can be expired.',
        'checkout_session_inactive',
      );
    }
    session.status = 'expired';
    this.put('checkout_sessions', session);
    this.emit('checkout.session.expired', session);
    return session;
  }

  private subscriptionItem(
    id: string,
    sub: string,
    price: StripeObject,
    quantity: number,
    start: number,
    end: number,
  ) {
    return {
      id,
      object: 'subscription_item',
      billing_thresholds: null,
      created: start,
      current_period_end: end,
      current_period_start: start,
      discounts: [],
      metadata: {},
      plan: null,
      price: this.serialize(price),
      quantity,
      subscription: sub,
      tax_rates: [],
    };
  }

  private item(sub: StripeObject): Record<string, unknown> & {
    current_period_start: number;
    current_period_end: number;
    price: StripeObject;
    quantity: number;
    id: string;
  } {
    const item = (sub.items as { data: never[] }).data[0];
    if (!item) throw new StripeApiError(500, 'api_error', `Subscription ${sub.id} has no item`);
    return item;
  }

  /** The discount the subscription's invoice at `at` gets, in cents. */
  private invoiceDiscount(sub: StripeObject, amount: number, at: number): number {
    let off = 0;
    for (const id of sub.discounts as string[]) {
      const d = this.get('discounts', id);
      if (!d || (typeof d.end === 'number' && d.end <= at)) continue;
      const coupon = this.get('coupons', (d.source as { coupon: string }).coupon);
      if (coupon) off += this.discountAmount(coupon, amount - off);
    }
    return off;
  }

  /**
   * An invoice for the subscription's current price (or `amount` for prorations), charged to its
   * payment method; returns it paid or open (payment failed).
   */
  private createInvoice(
    sub: StripeObject,
    reason: string,
    start: number,
    end: number,
    alreadyPaid = false,
    amount?: number,
  ): StripeObject {
    const item = this.item(sub);
    const customer = this.must('customers', 'customers', sub.customer as string);
    const base =
      amount ??
      (item.price.unit_amount as number) * item.quantity +
        ((sub._pending_proration as number) ?? 0);
    if (amount === undefined) sub._pending_proration = 0;
    const discount = amount === undefined ? this.invoiceDiscount(sub, Math.max(0, base), start) : 0;
    const total = base - discount;
    // The customer's credit balance (negative) pays first; a negative total becomes credit.
    const balance = customer.balance as number;
    let amountDue = total;
    if (total < 0) {
      customer.balance = balance + total;
      amountDue = 0;
    } else if (balance < 0) {
      const credit = Math.min(total, -balance);
      customer.balance = balance + credit;
      amountDue = total - credit;
    }
    this.put('customers', customer);
    const paid =
      amountDue === 0 ||
      alreadyPaid ||
      this.charge(
        sub.default_payment_method ??
          (customer.invoice_settings as { default_payment_method: string | null })
            .default_payment_method,
      );
    const id = stripeId('in');
    const invoice = this.put('invoices', {
      id,
      object: 'invoice',
      account_country: 'DE',
      account_name: 'Soundloft (sandbox)',
      amount_due: amountDue,
      amount_paid: paid ? amountDue : 0,
      amount_remaining: paid ? 0 : amountDue,
      attempt_count: amountDue === 0 ? 0 : 1,
      attempted: amountDue !== 0,
      billing_reason: reason,
      collection_method: 'charge_automatically',
      created: this.timeFor(customer.id),
      currency: sub.currency,
      customer: customer.id,
      customer_email: customer.email,
      customer_name: customer.name,
      default_payment_method: null,
      description: null,
      discounts: [],
      ending_balance: customer.balance,
      livemode: false,
      lines: {
        object: 'list',
        data: [
          {
            id: stripeId('il'),
            object: 'line_item',
            amount: base,
            currency: sub.currency,
            description:
              amount === undefined
                ? `${item.quantity} × ${(this.get('products', item.price.product as string)?.name as string) ?? 'Subscription'}`
                : 'Proration for the plan change',
            period: { start, end },
            pricing: {
              price_details: { price: item.price.id, product: item.price.product },
              type: 'price_details',
              unit_amount_decimal: String(item.price.unit_amount),
            },
            quantity: item.quantity,
          },
        ],
        has_more: false,
        url: `/v1/invoices/${id}/lines`,
      },
      metadata: {},
      next_payment_attempt: null,
      number: `${customer.invoice_prefix as string}-${String(this.all('invoices').filter((i) => i.customer === customer.id).length + 1).padStart(4, '0')}`,
      parent: {
        quote_details: null,
        subscription_details: { metadata: sub.metadata, subscription: sub.id },
        type: 'subscription_details',
      },
      period_end: end,
      period_start: start,
      starting_balance: balance,
      status: paid ? 'paid' : 'open',
      status_transitions: {
        finalized_at: start,
        paid_at: paid ? this.timeFor(customer.id) : null,
        voided_at: null,
        marked_uncollectible_at: null,
      },
      subtotal: base,
      test_clock: customer.test_clock ?? null,
      total,
      total_discount_amounts: discount
        ? [{ amount: discount, discount: (sub.discounts as string[])[0] }]
        : [],
    });
    sub.latest_invoice = invoice.id;
    this.put('subscriptions', sub);
    return invoice;
  }

  // ---------------------------------------------------------------------------------------------
  // subscriptions

  updateSubscription(
    id: string,
    p: {
      cancel_at_period_end?: boolean;
      items?: { id?: string; price?: string; quantity?: number }[];
      proration_behavior?: 'create_prorations' | 'always_invoice' | 'none';
      default_payment_method?: string | null;
      metadata?: Record<string, string>;
    },
  ): StripeObject {
    const sub = this.must('subscriptions', 'subscription', id);
    if (sub.status === 'canceled' || sub.status === 'incomplete_expired') {
      throw new StripeApiError(
        400,
        'invalid_request_error',
        `A canceled subscription can only update its cancellation_details and metadata.`,
        undefined,
        undefined,
      );
    }
    const before = this.serialize(sub);
    const at = this.timeFor(sub.customer);
    if (p.default_payment_method !== undefined) {
      if (p.default_payment_method) {
        const pm = this.must(
          'payment_methods',
          'PaymentMethod',
          p.default_payment_method,
          'default_payment_method',
        );
        if (pm.customer !== sub.customer) {
          throw new StripeApiError(
            400,
            'invalid_request_error',
            'The PaymentMethod provided must be attached to the customer.',
            'resource_missing',
            'default_payment_method',
          );
        }
      }
      sub.default_payment_method = p.default_payment_method || null;
    }
    if (p.metadata) sub.metadata = { ...(sub.metadata as object), ...p.metadata };
    if (p.cancel_at_period_end !== undefined) {
      sub.cancel_at_period_end = p.cancel_at_period_end;
      sub.cancel_at = p.cancel_at_period_end ? this.item(sub).current_period_end : null;
      sub.canceled_at = p.cancel_at_period_end ? at : null;
      sub.cancellation_details = {
        comment: null,
        feedback: null,
        reason: p.cancel_at_period_end ? 'cancellation_requested' : null,
      };
    }
    let invoice: StripeObject | null = null;
    const change = p.items?.[0];
    if (change?.price) {
      const item = this.item(sub);
      if (change.id && change.id !== item.id)
        throw noSuch('subscription item', change.id, 'items[0][id]');
      const newPrice = this.must('prices', 'price', change.price, 'items[0][price]');
      if (newPrice.id !== item.price.id) {
        // Stripe's proration: credit for the unused time on the old price, charge for the rest
        // of the period on the new one, to the second.
        const { current_period_start: start, current_period_end: end } = item;
        const remaining = Math.max(0, end - at) / Math.max(1, end - start);
        const net = Math.round(
          ((newPrice.unit_amount as number) - (item.price.unit_amount as number)) *
            item.quantity *
            remaining,
        );
        item.price = this.serialize(newPrice);
        const behaviour = p.proration_behavior ?? 'create_prorations';
        if (behaviour === 'always_invoice' && net !== 0) {
          invoice = this.createInvoice(sub, 'subscription_update', at, end, false, net);
          if (invoice.status !== 'paid') sub.status = 'past_due';
        } else if (behaviour === 'create_prorations') {
          sub._pending_proration = ((sub._pending_proration as number) ?? 0) + net;
        }
      }
    }
    this.put('subscriptions', sub);
    if (invoice)
      this.emit(invoice.status === 'paid' ? 'invoice.paid' : 'invoice.payment_failed', invoice);
    this.emit('customer.subscription.updated', sub, this.previous(before, this.serialize(sub)));
    return sub;
  }

  private previous(before: StripeObject, after: StripeObject): Record<string, unknown> {
    const prev: Record<string, unknown> = {};
    for (const key of Object.keys(after)) {
      if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) prev[key] = before[key];
    }
    return prev;
  }

  cancelSubscription(id: string): StripeObject {
    const sub = this.must('subscriptions', 'subscription', id);
    if (sub.status === 'canceled') return sub;
    const at = this.timeFor(sub.customer);
    this.endSubscription(sub, at, 'cancellation_requested');
    return sub;
  }

  private endSubscription(sub: StripeObject, at: number, reason: string) {
    sub.status = 'canceled';
    sub.ended_at = at;
    sub.canceled_at = (sub.canceled_at as number | null) ?? at;
    sub.cancellation_details = { comment: null, feedback: null, reason };
    this.put('subscriptions', sub);
    this.emit('customer.subscription.deleted', sub);
  }

  /** Moves every subscription of the clock's customers up to `to`: renewals, period-end cancels. */
  private runBilling(customerIds: Set<string>, to: number) {
    for (const sub of this.all('subscriptions')) {
      if (!customerIds.has(sub.customer as string)) continue;
      for (let guard = 0; guard < 240 && sub.status !== 'canceled'; guard++) {
        const item = this.item(sub);
        const end = item.current_period_end;
        if (end > to) break;
        if (sub.cancel_at_period_end) {
          this.endSubscription(sub, end, 'cancellation_requested');
          break;
        }
        const openInvoice = sub.latest_invoice
          ? this.get('invoices', sub.latest_invoice as string)
          : undefined;
        if (
          PAST_DUE_CANCELS_AT_NEXT_RENEWAL &&
          sub.status === 'past_due' &&
          openInvoice?.status === 'open'
        ) {
          // The retries of the failed invoice did not succeed: Stripe cancels the subscription.
          this.endSubscription(sub, end, 'payment_failed');
          break;
        }
        const before = this.serialize(sub);
        const next = addMonths(
          sub.billing_cycle_anchor as number,
          this.periodsSinceAnchor(sub) + 1,
        );
        item.current_period_start = end;
        item.current_period_end = next;
        const invoice = this.createInvoice(sub, 'subscription_cycle', end, next);
        sub.status = invoice.status === 'paid' ? 'active' : 'past_due';
        this.put('subscriptions', sub);
        this.emit(invoice.status === 'paid' ? 'invoice.paid' : 'invoice.payment_failed', invoice);
        this.emit('customer.subscription.updated', sub, this.previous(before, this.serialize(sub)));
      }
    }
  }

  private periodsSinceAnchor(sub: StripeObject): number {
    const anchor = sub.billing_cycle_anchor as number;
    const end = this.item(sub).current_period_end;
    let n = 1;
    while (addMonths(anchor, n) < end && n < 10_000) n++;
    return n;
  }

  // ---------------------------------------------------------------------------------------------
  // test clocks

  createTestClock(p: { frozen_time: number; name?: string | null }): StripeObject {
    return this.put('test_clocks', {
      id: stripeId('clock'),
      object: 'test_helpers.test_clock',
      created: this.now(),
      deletes_after: this.now() + 30 * 24 * 3600,
      frozen_time: p.frozen_time,
      livemode: false,
      name: p.name ?? null,
      status: 'ready',
      status_details: {},
    });
  }

  advanceTestClock(id: string, frozenTime: number): StripeObject {
    const clock = this.must('test_clocks', 'test clock', id);
    if (frozenTime <= (clock.frozen_time as number)) {
      throw new StripeApiError(
        400,
        'invalid_request_error',
        'The frozen time must be after the current frozen time of the test clock.',
        'parameter_invalid_integer',
        'frozen_time',
      );
    }
    const customers = new Set(
      this.all('customers')
        .filter((c) => c.test_clock === id)
        .map((c) => c.id),
    );
    // Step through the clock's renewals in time order (events carry the time they happen).
    for (;;) {
      const due = this.all('subscriptions')
        .filter((s) => customers.has(s.customer as string) && s.status !== 'canceled')
        .map((s) => this.item(s).current_period_end)
        .filter((t) => t <= frozenTime)
        .sort((a, b) => a - b)[0];
      if (due === undefined) break;
      clock.frozen_time = due;
      this.runBilling(customers, due);
    }
    clock.frozen_time = frozenTime;
    this.put('test_clocks', clock);
    this.emit('test_helpers.test_clock.ready', clock);
    return clock;
  }
}
