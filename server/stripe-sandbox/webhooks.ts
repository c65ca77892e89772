/**
 * Webhook delivery as Stripe does it: each event POSTed as JSON to every endpoint with
 * `Stripe-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<payload>" keyed by the
 * endpoint's whsec_ secret>`; any answer but 2xx (or no answer) is retried with exponential
 * backoff. Stripe retries for up to three days; the sandbox condenses that to `retryDelaysMs`.
 */
import { createHmac } from 'node:crypto';
import type { StripeObject } from './sandbox';

export interface WebhookEndpoint {
  url: string;
  secret: string;
}

export function stripeSignatureHeader(payload: string, secret: string, timestamp: number): string {
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${payload}`, 'utf8').digest('hex');
  return `t=${timestamp},v1=${v1}`;
}

export interface DeliveryAttempt {
  event: string;
  type: string;
  url: string;
  attempt: number;
  status: number | null;
}

export interface WebhookDelivery {
  enqueue(event: StripeObject): void;
  /** Resolves when every queued delivery has succeeded or used up its retries. */
  idle(): Promise<void>;
  attempts: DeliveryAttempt[];
  close(): void;
}

export function createWebhookDelivery(
  endpoints: () => WebhookEndpoint[],
  options: { retryDelaysMs?: number[]; timeoutMs?: number; now?: () => number } = {},
): WebhookDelivery {
  const delays = options.retryDelaysMs ?? [1_000, 5_000, 30_000, 120_000, 600_000];
  const timeoutMs = options.timeoutMs ?? 30_000;
  const now = options.now ?? (() => Math.floor(Date.now() / 1000));
  const attempts: DeliveryAttempt[] = [];
  let pending = 0;
  let waiters: (() => void)[] = [];
  let closed = false;
  const timers = new Set<NodeJS.Timeout>();
  // One event at a time, in the order they happened (retries go back to the end of the line).
  let chain: Promise<void> = Promise.resolve();

  const settle = () => {
    pending--;
    if (pending === 0) {
      const w = waiters;
      waiters = [];
      for (const resolve of w) resolve();
    }
  };

  const send = async (event: StripeObject, endpoint: WebhookEndpoint, attempt: number) => {
    const payload = JSON.stringify(event, null, 2);
    let status: number | null;
    try {
      const res = await fetch(endpoint.url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json; charset=utf-8',
          'User-Agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
          'Stripe-Signature': stripeSignatureHeader(payload, endpoint.secret, now()),
        },
        body: payload,
        signal: AbortSignal.timeout(timeoutMs),
      });
      status = res.status;
      await res.arrayBuffer().catch(() => undefined);
    } catch {
      status = null;
    }
    attempts.push({
      event: event.id,
      type: event.type as string,
      url: endpoint.url,
      attempt,
      status,
    });
    if (attempts.length > 1000) attempts.splice(0, attempts.length - 1000);
    const ok = status !== null && status >= 200 && status < 300;
    const delay = delays[attempt - 1];
    if (ok || delay === undefined || closed) {
      if (!ok)
        console.warn(
          `[stripe-sandbox] webhook ${event.id} (${event.type as string}) to ${endpoint.url} failed for good`,
        );
      settle();
      return;
    }
    const timer = setTimeout(() => {
      timers.delete(timer);
      chain = chain.then(() => send(event, endpoint, attempt + 1));
    }, delay);
    timers.add(timer);
  };

  return {
    attempts,
    enqueue(event) {
      if (closed) return;
      for (const endpoint of endpoints()) {
        pending++;
        chain = chain.then(() => send(event, endpoint, 1));
      }
    },
    idle() {
      return pending === 0 ? Promise.resolve() : new Promise((resolve) => waiters.push(resolve));
    },
    close() {
      closed = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      const w = waiters;
      waiters = [];
      for (const resolve of w) resolve();
    },
  };
}
