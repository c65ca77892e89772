export {
  DEFAULT_MAIL_FROM,
  createDevMailbox,
  createMailer,
  createOffMailer,
  createSmtpMailer,
  extractLinks,
} from './mailer';
export type { MailMessage, Mailer, MailerOptions, StoredMail } from './mailer';
export { renderAuthMail } from './templates';
export type { AuthMailInput, AuthMailKind } from './templates';
export { createDevMailApp } from './dev-mail-app';
