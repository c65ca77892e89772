/**
 * The prerendered auth pages (issue 34, docs/auth.md "Prerendered auth pages"): /login, /signup
 * and /forgot-password arrive as HTML. Before the app's JavaScript runs, their forms can send
 * nothing; after it, they hydrate without a mismatch and work; the service worker serves them.
 */
import { expect, test } from './support/test';
import { waitForServiceWorker } from './support/service-worker';

const SECRET = 'never-in-a-request-7Qz';
const FORMS = [
  { path: '/login', heading: 'Log in to Soundloft', submit: 'Log In' },
  { path: '/signup', heading: 'Create your account', submit: 'Sign Up Free' },
  { path: '/forgot-password', heading: 'Forgot your password?', submit: 'Send reset link' },
];

test('before hydration an auth form sends nothing: no password in a URL or a request', async ({
  page,
}) => {
  const sent: string[] = [];
  page.on('request', (r) => sent.push(`${r.method()} ${r.url()} ${r.postData() ?? ''}`));
  // The app's code never arrives: the page stays as the server rendered it.
  await page.route(/\/assets\/.*\.js(\?.*)?$/, (route) => route.abort());
  for (const form of FORMS) {
    await page.goto(form.path);
    await expect(page.getByRole('heading', { level: 1, name: form.heading })).toBeVisible();
    const submit = page.getByRole('button', { name: form.submit });
    await expect(submit).toBeDisabled();
    for (const input of await page.locator('form input').all()) await expect(input).toBeDisabled();
    // What a password manager or a fast typist could do: fill every field, then submit by the
    // button and by the form itself (as Enter would).
    await page.evaluate((secret) => {
      for (const input of document.querySelectorAll<HTMLInputElement>('form input')) {
        input.value = input.type === 'email' ? `${secret}@example.test` : secret;
      }
    }, SECRET);
    await submit.click({ force: true });
    // requestSubmit() sends the form even with its button disabled: a native POST to the page,
    // without the disabled fields. Waited for, so the next page's goto does not race it.
    const sentNatively = page.waitForRequest(
      (r) => r.isNavigationRequest() && r.method() === 'POST',
    );
    const committed = page.waitForEvent('framenavigated', (f) => f === page.mainFrame());
    await page.evaluate(() => document.querySelector('form')?.requestSubmit());
    await sentNatively;
    await committed;
    await page.waitForLoadState();
    expect(page.url()).not.toContain(SECRET);
  }
  expect(sent.filter((r) => r.includes(SECRET))).toEqual([]);
});

test('the auth pages are prerendered, hydrate without a warning and their forms work after', async ({
  page,
}) => {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (msg) => {
    if (msg.type() === 'error' || msg.type() === 'warning') problems.push(msg.text());
  });
  for (const form of FORMS) {
    const html = await (await page.request.get(form.path)).text();
    expect(html, `${form.path} is served prerendered`).toContain(form.submit);
    await page.goto(form.path);
    await expect(page.locator('html[data-app-ready="true"]')).toHaveCount(1);
    await expect(page.getByRole('button', { name: form.submit })).toBeEnabled();
    // Hydrated: the form's own validation answers, no native submission happened.
    await page.getByRole('button', { name: form.submit }).click();
    await expect(page.getByText('Email is required').first()).toBeVisible();
    expect(page.url()).toMatch(new RegExp(`${form.path}$`));
  }
  expect(problems).toEqual([]);
});

test('the service worker precaches the auth pages and serves them offline', async ({
  page,
  context,
}) => {
  await page.goto('/');
  await waitForServiceWorker(page);
  for (const form of FORMS) {
    expect(
      await page.evaluate(
        async (path) =>
          // Workbox keys a file without a hash in its name by a revision query.
          Boolean(await caches.match(`/prerender${path}.html`, { ignoreSearch: true })),
        form.path,
      ),
      `${form.path} precached`,
    ).toBe(true);
  }
  await context.setOffline(true);
  await page.goto('/signup');
  await expect(page.getByRole('heading', { level: 1, name: FORMS[1]!.heading })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign Up Free' })).toBeEnabled();
  await context.setOffline(false);
});
