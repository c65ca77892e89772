/**
 * Helpers of the account-data specs (docs/privacy-rights.md): unzipping an export archive, an
 * axe-core scan of the page, and moving an account deletion's scheduled time (the service role
 * may update `account_deletions.run_after`: the documented way tests move the grace period).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { serviceRoleKey } from './session';

export { unzip } from '../../support/unzip';

const AXE_SOURCE = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

/** axe-core's WCAG 2.1 A/AA rules on the page as it is: the violations, by rule and target. */
export async function axeViolations(page: Page): Promise<string[]> {
  // Through the DevTools protocol, not a script tag: the page's CSP allows no inline script.
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            c: unknown,
            o: unknown,
          ) => Promise<{
            violations: { id: string; nodes: { target: unknown[] }[] }[];
          }>;
        };
      }
    ).axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    });
    return result.violations.map(
      (v) => `${v.id}: ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`,
    );
  });
}

const serviceHeaders = () => {
  const key = serviceRoleKey();
  return { apikey: key, authorization: `Bearer ${key}`, 'content-type': 'application/json' };
};

/** Ends the grace period of a scheduled deletion now (the test clock of account deletions). */
export async function endGracePeriod(request: APIRequestContext, userId: string): Promise<void> {
  const res = await request.patch(`/rest/v1/account_deletions?user_id=eq.${userId}`, {
    headers: { ...serviceHeaders(), prefer: 'return=representation' },
    data: { run_after: new Date(Date.now() - 1000).toISOString() },
  });
  expect(res.ok(), await res.text()).toBe(true);
  expect(((await res.json()) as unknown[]).length).toBe(1);
}

/** Whether the auth server still has the user (admin API). */
export async function userExists(request: APIRequestContext, userId: string): Promise<boolean> {
  const res = await request.get(`/auth/v1/admin/users/${userId}`, { headers: serviceHeaders() });
  return res.ok();
}
