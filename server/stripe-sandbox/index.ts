/**
 * The local payment sandbox `npm start` serves when STRIPE_SECRET_KEY is not set: Stripe's REST
 * API at `/v1` (for the official `stripe` library, pointed here by host/port/protocol), the
 * hosted checkout page at `/_stripe/c/pay/<session>`, and signed webhooks to the stripe-webhook
 * function. Its keys are derived from JWT_SECRET so they survive restarts.
 */
import { createHmac } from 'node:crypto';
import { join } from 'node:path';
import type { Hono } from 'hono';
import { createSandboxApi } from './api';
import { createHostedPages } from './hosted';
import { StripeSandbox } from './sandbox';
import { createWebhookDelivery, type WebhookDelivery, type WebhookEndpoint } from './webhooks';

export { StripeSandbox, STRIPE_API_VERSION, TEST_CARDS } from './sandbox';
export { stripeSignatureHeader, type WebhookEndpoint } from './webhooks';

export interface SandboxKeys {
  secretKey: string;
  webhookSecret: string;
}

/** `sk_test_sandbox_…` and `whsec_…`, stable for one JWT secret. */
export function sandboxKeys(jwtSecret: string): SandboxKeys {
  const derive = (label: string) =>
    createHmac('sha256', jwtSecret).update(`soundloft-stripe-sandbox:${label}`).digest('hex');
  return {
    secretKey: `sk_test_sandbox_${derive('secret-key').slice(0, 32)}`,
    webhookSecret: `whsec_${derive('webhook-secret').slice(0, 32)}`,
  };
}

export interface StripeSandboxServer {
  sandbox: StripeSandbox;
  keys: SandboxKeys;
  /** Mount at `/v1`. */
  api: Hono;
  /** Mount at `/_stripe`. */
  pages: Hono;
  delivery: WebhookDelivery;
  /** Endpoints the events go to (the stripe-webhook function; tests may add or replace). */
  endpoints: WebhookEndpoint[];
  close(): void;
}

export function createStripeSandboxServer(options: {
  publicUrl: string;
  keys: SandboxKeys;
  /** Where webhooks go; default `<publicUrl>/functions/v1/stripe-webhook`. */
  webhookUrl?: string;
  /** DATA_DIR (state in `<dataDir>/stripe-sandbox.json`), or 'memory'. */
  dataDir?: string;
  retryDelaysMs?: number[];
}): StripeSandboxServer {
  const persistFile =
    !options.dataDir || options.dataDir === 'memory'
      ? null
      : join(options.dataDir, 'stripe-sandbox.json');
  const sandbox = new StripeSandbox({ publicUrl: options.publicUrl, persistFile });
  const endpoints: WebhookEndpoint[] = [
    {
      url:
        options.webhookUrl ??
        `${options.publicUrl.replace(/\/+$/, '')}/functions/v1/stripe-webhook`,
      secret: options.keys.webhookSecret,
    },
  ];
  const delivery = createWebhookDelivery(() => endpoints, {
    retryDelaysMs: options.retryDelaysMs,
  });
  const stop = sandbox.onEvent((event) => delivery.enqueue(event));
  return {
    sandbox,
    keys: options.keys,
    api: createSandboxApi(sandbox, options.keys.secretKey),
    pages: createHostedPages(sandbox),
    delivery,
    endpoints,
    close() {
      stop();
      delivery.close();
      sandbox.saveNow();
    },
  };
}
