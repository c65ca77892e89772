/**
 * Outgoing mail: SMTP through nodemailer when SMTP_URL is set, else a development mailbox kept in
 * memory (bounded, newest first) that `createDevMailApp` shows at /_dev/mail.
 */
import { randomUUID } from 'node:crypto';
import nodemailer from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The links the message carries (extracted from the text when not given). */
  links?: string[];
}

export interface StoredMail {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  links: string[];
  createdAt: string;
}

export interface Mailer {
  readonly kind: 'smtp' | 'dev' | 'off';
  send(message: MailMessage): Promise<void>;
  /** The development mailbox, newest first (always empty for SMTP). */
  list(): StoredMail[];
  clear(): void;
}

export interface MailerOptions {
  /** How many messages the development mailbox keeps (default 200). */
  capacity?: number;
  /** Where the development mailbox announces a new message (default console.info). */
  log?: (line: string) => void;
}

export const DEFAULT_MAIL_FROM = 'Soundloft <no-reply@soundloft.local>';

export function extractLinks(text: string): string[] {
  return [...new Set(text.match(/https?:\/\/[^\s<>"')]+/g) ?? [])];
}

export function createDevMailbox(options: MailerOptions = {}): Mailer {
  const capacity = options.capacity ?? 200;
  const log = options.log ?? ((line: string) => console.info(line));
  let messages: StoredMail[] = [];
  return {
    kind: 'dev',
    async send(message) {
      const stored: StoredMail = {
        id: randomUUID(),
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
        links: message.links ?? extractLinks(message.text),
        createdAt: new Date().toISOString(),
      };
      messages = [stored, ...messages].slice(0, capacity);
      log(`[dev mailbox] "${stored.subject}" to ${stored.to} (see /_dev/mail)`);
    },
    list: () => [...messages],
    clear() {
      messages = [];
    },
  };
}

export function createSmtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    kind: 'smtp',
    async send(message) {
      await transport.sendMail({
        from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
      });
    },
    list: () => [],
    clear() {},
  };
}

/**
 * `MAIL=off`: nothing is sent and nothing is kept (a production server without a mail
 * transport). Only the subject and the recipient are logged, never the links a message carries.
 */
export function createOffMailer(log: (line: string) => void = (l) => console.info(l)): Mailer {
  return {
    kind: 'off',
    async send(message) {
      log(`[mail off] not sent: "${message.subject}" to ${message.to} (MAIL=off)`);
    },
    list: () => [],
    clear() {},
  };
}

/**
 * `MAIL=off`: no mail; SMTP when `SMTP_URL` is set (sender `SMTP_FROM`); else the development
 * mailbox.
 */
export function createMailer(
  env: Record<string, string | undefined> = process.env,
  options: MailerOptions = {},
): Mailer {
  if (env.MAIL?.trim().toLowerCase() === 'off') return createOffMailer(options.log);
  const url = env.SMTP_URL?.trim();
  if (url) return createSmtpMailer(url, env.SMTP_FROM?.trim() || DEFAULT_MAIL_FROM);
  return createDevMailbox(options);
}
