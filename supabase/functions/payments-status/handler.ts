/**
 * `payments-status`: GET (or POST) → `{enabled, notice}`, public (deployed with
 * `--no-verify-jwt`). `enabled` is false when the server has no Stripe key or PAYMENTS=off; the
 * app then shows `notice` on /subscription and the upgrade prompts instead of checkout
 * (docs/production.md). Nothing secret: whether paid plans are sold is on the pricing page anyway.
 */
import { json, withCors } from '../_shared/http.ts';
import { readBody, z } from '../_shared/body.ts';
import { PAYMENTS_OFF_MESSAGE, paymentsEnabled } from '../_shared/stripe.ts';

export const handler = withCors(async (req, ctx) => {
  if (req.method !== 'GET' && req.method !== 'POST')
    return json({ error: 'Method not allowed' }, 405);
  // A POST asks nothing: no body, or an empty object (anything else is a 400, as everywhere).
  if (req.method === 'POST') {
    const text = await req.text();
    if (text.trim() !== '') {
      await readBody(new Request(req.url, { method: 'POST', body: text }), z.strictObject({}));
    }
  }
  const enabled = paymentsEnabled(ctx);
  return json({ enabled, notice: enabled ? null : PAYMENTS_OFF_MESSAGE }, 200, {
    'Cache-Control': 'no-store',
  });
});
