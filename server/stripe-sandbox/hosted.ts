/**
 * The sandbox's hosted checkout page (`/_stripe/c/pay/<session id>`), standing in for
 * checkout.stripe.com: clearly labelled as a development stand-in that moves no money, it takes
 * Stripe's test cards, shows Stripe's decline messages, asks for a confirmation step for the
 * 3D Secure test card, and redirects to the session's success_url (or back to cancel_url).
 */
import { Hono, type Context } from 'hono';
import { DECLINE_MESSAGES, StripeApiError, type StripeObject, type StripeSandbox } from './sandbox';

const esc = (v: unknown) => String(v ?? '').replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

const money = (cents: number, currency: string) =>
  new Intl.NumberFormat('en-IE', { style: 'currency', currency: currency.toUpperCase() }).format(
    cents / 100,
  );

const STYLE = `
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;background:#f6f7fb;color:#1a1b25}
.standin{background:#fff4ce;border-bottom:2px solid #b38600;padding:12px 16px;font-size:14px}
.standin strong{display:block;font-size:15px}
main{max-width:920px;margin:0 auto;padding:24px 16px;display:grid;gap:24px;grid-template-columns:1fr}
@media(min-width:760px){main{grid-template-columns:1fr 1fr;padding-top:48px}}
.summary h1{font-size:18px;margin:0 0 4px;color:#555}.amount{font-size:34px;font-weight:700;margin:0}
.line{display:flex;justify-content:space-between;border-top:1px solid #ddd;padding:8px 0;font-size:14px}
form{background:#fff;border-radius:10px;padding:20px;box-shadow:0 1px 4px rgba(0,0,0,.08)}
label{display:block;font-size:14px;font-weight:600;margin:12px 0 4px}
input{width:100%;font:inherit;padding:10px 12px;border:1px solid #bbb;border-radius:6px}
input:focus{outline:3px solid #635bff55;border-color:#635bff}
.row{display:grid;grid-template-columns:1fr 1fr;gap:12px}
button{width:100%;margin-top:20px;padding:12px;font:inherit;font-weight:600;border:0;border-radius:6px;background:#635bff;color:#fff;cursor:pointer}
button.secondary{background:#e3e4ea;color:#1a1b25}
button:focus-visible,a:focus-visible{outline:3px solid #1a1b25;outline-offset:2px}
.error{color:#b00020;background:#fde7ea;border-radius:6px;padding:8px 12px;margin:12px 0 0}
.back{display:inline-block;margin-bottom:16px;color:#3c3ca8}
.cards{font-size:13px;color:#444;margin:8px 0 0;padding-left:18px}
`;

function page(title: string, body: string, status = 200) {
  return {
    status,
    html: `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>${esc(title)}</title><style>${STYLE}</style></head><body>
<div class="standin" role="note" aria-label="Development stand-in"><strong>Development stand-in for Stripe Checkout: no money moves.</strong>
This page is served by Soundloft's local payment sandbox (no STRIPE_SECRET_KEY is set). Use Stripe's test cards:
<ul class="cards"><li>4242 4242 4242 4242: succeeds</li><li>4000 0000 0000 0002: declined</li><li>4000 0025 0000 3155: asks for a confirmation step</li></ul></div>
${body}</body></html>`,
  };
}

interface CardInput {
  number: string;
  exp: string;
  cvc: string;
  name: string;
}

function checkoutPage(
  sandbox: StripeSandbox,
  session: StripeObject,
  input: Partial<CardInput> = {},
  error?: string,
) {
  const { price, product } = sandbox.sessionPrice(session);
  const currency = session.currency as string;
  const customer = session.customer
    ? sandbox.get('customers', session.customer as string)
    : undefined;
  const email =
    (customer?.email as string | null) ?? (session.customer_email as string | null) ?? '';
  const discount = (session.total_details as { amount_discount: number }).amount_discount;
  const back = session.cancel_url
    ? `<a class="back" href="${esc(session.cancel_url)}">← Back</a>`
    : '';
  return page(
    `Subscribe to ${product.name as string}`,
    `<main>
<section class="summary" aria-labelledby="summary-title">${back}
<h1 id="summary-title">Subscribe to ${esc(product.name)}</h1>
<p class="amount">${esc(money(price.unit_amount as number, currency))} <span style="font-size:16px;font-weight:400">per month</span></p>
<div class="line"><span>Subtotal</span><span>${esc(money(session.amount_subtotal as number, currency))}</span></div>
${discount ? `<div class="line"><span>Discount (first invoice)</span><span>−${esc(money(discount, currency))}</span></div>` : ''}
<div class="line"><strong>Total due today</strong><strong>${esc(money(session.amount_total as number, currency))}</strong></div>
</section>
<form method="post" action="/_stripe/c/pay/${esc(session.id)}" novalidate aria-labelledby="pay-title">
<h2 id="pay-title" style="margin:0;font-size:18px">Pay with card</h2>
<label for="email">Email</label><input id="email" name="email" type="email" value="${esc(email)}" autocomplete="email" ${email ? 'readonly' : ''}>
<label for="cardnumber">Card number</label><input id="cardnumber" name="cardnumber" inputmode="numeric" autocomplete="cc-number" placeholder="1234 1234 1234 1234" value="${esc(input.number)}" required>
<div class="row"><div><label for="exp">Expiry (MM / YY)</label><input id="exp" name="exp" inputmode="numeric" autocomplete="cc-exp" placeholder="MM / YY" value="${esc(input.exp)}" required></div>
<div><label for="cvc">CVC</label><input id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" placeholder="CVC" value="${esc(input.cvc)}" required></div></div>
<label for="name">Cardholder name</label><input id="name" name="name" autocomplete="cc-name" value="${esc(input.name)}">
${error ? `<p class="error" role="alert" id="card-error">${esc(error)}</p>` : '<p role="alert" id="card-error" hidden></p>'}
<button type="submit">Subscribe</button>
</form></main>`,
    error ? 402 : 200,
  );
}

function authenticationPage(session: StripeObject, input: CardInput) {
  const hidden = (Object.entries(input) as [string, string][])
    .map(
      ([k, v]) =>
        `<input type="hidden" name="${k === 'number' ? 'cardnumber' : k}" value="${esc(v)}">`,
    )
    .join('');
  return page(
    '3D Secure test authentication',
    `<main><form method="post" action="/_stripe/c/pay/${esc(session.id)}/authenticate" aria-labelledby="auth-title" style="grid-column:1/-1">
<h1 id="auth-title" style="font-size:20px;margin:0 0 8px">3D Secure 2 test page</h1>
<p>Your bank asks you to confirm this payment (a stand-in for the bank's confirmation step; nothing is charged).</p>
${hidden}<button type="submit" name="result" value="complete">Complete authentication</button>
<button type="submit" name="result" value="fail" class="secondary">Fail authentication</button></form></main>`,
  );
}

function parseExpiry(exp: string): { month: number; year: number } | null {
  const m = /^\s*(\d{1,2})\s*\/?\s*(\d{2}|\d{4})\s*$/.exec(exp);
  if (!m) return null;
  const month = Number(m[1]);
  const y = m[2] ?? '';
  const year = y.length === 2 ? 2000 + Number(y) : Number(y);
  return month >= 1 && month <= 12 ? { month, year } : null;
}

export function createHostedPages(sandbox: StripeSandbox): Hono {
  const app = new Hono();
  const send = (c: Context, p: { status: number; html: string }) =>
    c.html(p.html, p.status as 200, { 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex' });

  type Found =
    | { kind: 'open'; session: StripeObject }
    | { kind: 'done'; to: string }
    | { kind: 'error'; page: { status: number; html: string } };
  const openSession = (c: Context): Found => {
    const session = sandbox.get('checkout_sessions', c.req.param('id') ?? '');
    if (!session)
      return {
        kind: 'error',
        page: page(
          'Checkout not found',
          '<main><p role="alert">Something went wrong: this checkout session does not exist.</p></main>',
          404,
        ),
      };
    if (session.status === 'complete')
      return { kind: 'done', to: sandbox.successRedirect(session) };
    if (
      session.status === 'expired' ||
      (session.expires_at as number) < sandbox.timeFor(session.customer)
    ) {
      return {
        kind: 'error',
        page: page(
          'Checkout expired',
          `<main><p role="alert">This checkout session has expired.</p>${session.cancel_url ? `<a class="back" href="${esc(session.cancel_url)}">← Back</a>` : ''}</main>`,
          410,
        ),
      };
    }
    return { kind: 'open', session };
  };

  const pay = async (c: Context, authenticated: boolean | null) => {
    const found = openSession(c);
    if (found.kind === 'done') return c.redirect(found.to, 303);
    if (found.kind === 'error') return send(c, found.page);
    const session = found.session;
    const form = await c.req.parseBody();
    const input: CardInput = {
      number: String(form.cardnumber ?? '').replace(/[\s-]/g, ''),
      exp: String(form.exp ?? ''),
      cvc: String(form.cvc ?? ''),
      name: String(form.name ?? ''),
    };
    if (authenticated === false || form.result === 'fail') {
      return send(c, checkoutPage(sandbox, session, input, DECLINE_MESSAGES.authentication_failed));
    }
    if (!/^\d{12,19}$/.test(input.number))
      return send(c, checkoutPage(sandbox, session, input, 'Your card number is incomplete.'));
    const exp = parseExpiry(input.exp);
    if (!exp)
      return send(
        c,
        checkoutPage(sandbox, session, input, "Your card's expiration date is incomplete."),
      );
    const today = new Date();
    if (
      exp.year < today.getUTCFullYear() ||
      (exp.year === today.getUTCFullYear() && exp.month < today.getUTCMonth() + 1)
    ) {
      return send(
        c,
        checkoutPage(sandbox, session, input, "Your card's expiration year is in the past."),
      );
    }
    if (!/^\d{3,4}$/.test(input.cvc))
      return send(
        c,
        checkoutPage(sandbox, session, input, "Your card's security code is incomplete."),
      );
    try {
      sandbox.completeCheckout(
        session.id,
        {
          number: input.number,
          exp_month: exp.month,
          exp_year: exp.year,
          name: input.name || null,
          email: String(form.email ?? '') || null,
        },
        authenticated === true,
      );
    } catch (err) {
      if (err instanceof StripeApiError && err.code === 'authentication_required')
        return send(c, authenticationPage(session, input));
      if (err instanceof StripeApiError)
        return send(c, checkoutPage(sandbox, session, input, err.message));
      throw err;
    }
    return c.redirect(
      sandbox.successRedirect(sandbox.must('checkout_sessions', 'checkout session', session.id)),
      303,
    );
  };

  app.get('/c/pay/:id', (c) => {
    const found = openSession(c);
    if (found.kind === 'done') return c.redirect(found.to, 303);
    return send(c, found.kind === 'open' ? checkoutPage(sandbox, found.session) : found.page);
  });
  app.post('/c/pay/:id', (c) => pay(c, null));
  app.post('/c/pay/:id/authenticate', async (c) => {
    const form = await c.req.raw.clone().formData();
    return pay(c, form.get('result') === 'complete');
  });
  return app;
}
