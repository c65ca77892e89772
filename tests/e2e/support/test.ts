/**
 * Playwright's `test`, with one rule for every spec: a page that breaks the Content-Security-
 * Policy fails the test (docs/production.md, "Headers"). The server sends the policy in every
 * mode, so the suite proves the app, the service worker, the player and checkout live with it.
 * Specs import `test` and `expect` from here (ESLint enforces it); helper modules may keep
 * importing types from '@playwright/test'.
 */
import { test as base, type BrowserContext } from '@playwright/test';

export * from '@playwright/test';

/** What Chromium logs for a refused load, inline script, eval, frame or connection. */
const CSP_CONSOLE = /Content[- ]Security[- ]Policy/i;

const watched = new WeakSet<BrowserContext>();
let violations: string[] = [];

/** Collects the CSP violations of every page of `context` (the default one, and any a spec makes). */
async function watchCsp(context: BrowserContext): Promise<void> {
  if (watched.has(context)) return;
  watched.add(context);
  context.on('console', (message) => {
    if (CSP_CONSOLE.test(message.text()))
      violations.push(`${message.page()?.url() ?? '?'}: ${message.text()}`);
  });
  // The event also reports what the console may not (a violation inside a frame, a report-only
  // policy): each one is logged, so the listener above sees it.
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(
        `[securitypolicyviolation] Content-Security-Policy: ${event.violatedDirective} blocked ${event.blockedURI || 'inline'} (${event.sourceFile}:${event.lineNumber})`,
      );
    });
  });
}

export const test = base.extend<{ cspGuard: undefined }, { cspBrowser: undefined }>({
  // Contexts a spec opens itself (browser.newContext) are watched too.
  cspBrowser: [
    async ({ browser }, use) => {
      const newContext = browser.newContext.bind(browser);
      browser.newContext = async (...args: Parameters<typeof newContext>) => {
        const context = await newContext(...args);
        await watchCsp(context);
        return context;
      };
      await use(undefined);
      browser.newContext = newContext;
    },
    { scope: 'worker', auto: true },
  ],
  cspGuard: [
    async ({ context }, use) => {
      violations = [];
      await watchCsp(context);
      await use(undefined);
      const found = violations;
      violations = [];
      if (found.length) {
        throw new Error(
          `Content-Security-Policy violations (fix the page or the policy in server/http/security-headers.ts):\n${found.join('\n')}`,
        );
      }
    },
    { auto: true },
  ],
});
