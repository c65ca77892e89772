import { expect, type APIRequestContext } from '@playwright/test';

export interface DevMail {
  id: string;
  to: string | string[];
  subject: string;
  text: string;
  html: string;
  links: string[];
  createdAt: string;
}

const recipients = (mail: DevMail) =>
  (Array.isArray(mail.to) ? mail.to : [mail.to]).map((t) => t.toLowerCase());

/** Waits for the newest dev-mailbox message to `to` whose subject matches, and returns it. */
export async function waitForMail(
  request: APIRequestContext,
  to: string,
  subject: RegExp,
): Promise<DevMail> {
  let found: DevMail | undefined;
  await expect
    .poll(
      async () => {
        const res = await request.get('/_dev/mail.json');
        const mails = (await res.json()) as DevMail[];
        found = mails.find(
          (m) => recipients(m).some((r) => r.includes(to.toLowerCase())) && subject.test(m.subject),
        );
        return Boolean(found);
      },
      { timeout: 10_000 },
    )
    .toBe(true);
  return found!;
}

/** The mail's link to the auth server's verify endpoint. */
export function verifyLink(mail: DevMail): string {
  const link = mail.links.find((l) => l.includes('/auth/v1/verify'));
  if (!link) throw new Error(`no verify link in mail '${mail.subject}': ${mail.links.join(', ')}`);
  return link;
}

/** A fresh address per test run, so tests never collide. */
export function uniqueEmail(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}@example.com`;
}
