/**
 * Soundloft's auth e-mails (HTML and plain text). No remote images or fonts: inline styles and
 * a text logo, so nothing is fetched when the message is opened.
 */
import type { MailMessage } from './mailer';
import { escapeHtml } from '../lib/escape-html';

export type AuthMailKind =
  | 'confirmation'
  | 'recovery'
  | 'magic_link'
  | 'email_change'
  | 'email_change_current'
  | 'email_changed'
  | 'invite'
  | 'reauthentication';

export interface AuthMailInput {
  to: string;
  /** The verification link (none for a reauthentication code). */
  link?: string;
  /** The six-digit code that works instead of the link (none for a notice). */
  otp?: string;
  /** For an address change: the new address. */
  newEmail?: string;
  /** For an address change: the address it replaces. */
  oldEmail?: string;
}

interface Copy {
  subject: string;
  heading: string;
  intro: string;
  button: string;
  outro: string;
}

function copyFor(kind: AuthMailKind, input: AuthMailInput): Copy {
  switch (kind) {
    case 'confirmation':
      return {
        subject: 'Confirm your Soundloft account',
        heading: 'Confirm your email address',
        intro: 'Welcome to Soundloft! Confirm your email address to finish creating your account.',
        button: 'Confirm email address',
        outro: "If you didn't sign up for Soundloft, you can ignore this email.",
      };
    case 'recovery':
      return {
        subject: 'Reset your Soundloft password',
        heading: 'Reset your password',
        intro: 'Someone (hopefully you) asked to reset the password of your Soundloft account.',
        button: 'Choose a new password',
        outro: "If you didn't ask for this, ignore this email: your password stays the same.",
      };
    case 'magic_link':
      return {
        subject: 'Your Soundloft sign-in link',
        heading: 'Sign in to Soundloft',
        intro: 'Use this link to sign in to your Soundloft account.',
        button: 'Sign in',
        outro: "If you didn't ask for this, you can ignore this email.",
      };
    case 'email_change':
      return {
        subject: 'Confirm your new Soundloft email address',
        heading: 'Confirm your new email address',
        intro: `Confirm that you want to use ${input.newEmail ?? input.to} for your Soundloft account.`,
        button: 'Confirm new address',
        outro:
          "If you didn't ask for this change, ignore this email and keep your current address.",
      };
    case 'email_change_current':
      return {
        subject: 'Confirm the change of your Soundloft email address',
        heading: 'Confirm your email address change',
        intro: `Someone (hopefully you) asked to change the email address of your Soundloft account from ${input.to} to ${input.newEmail ?? ''}. The change happens once both addresses confirm it.`,
        button: 'Confirm the change',
        outro:
          "If you didn't ask for this, ignore this email: the address stays the same. Then change your password.",
      };
    case 'email_changed':
      return {
        subject: 'Your Soundloft email address was changed',
        heading: 'Your email address was changed',
        intro: `The email address of your Soundloft account was changed from ${input.oldEmail ?? input.to} to ${input.newEmail ?? ''}. Sign-in links and notices now go to the new address.`,
        button: '',
        outro:
          "If you didn't make this change, reply to this email or contact support right away: someone may have access to your account.",
      };
    case 'reauthentication':
      return {
        subject: 'Your Soundloft confirmation code',
        heading: 'Confirm it is you',
        intro: 'Enter this code in Soundloft to confirm a sensitive change to your account.',
        button: '',
        outro: "If you didn't ask for this, someone may know your password: change it.",
      };
    case 'invite':
      return {
        subject: "You're invited to Soundloft",
        heading: "You've been invited to Soundloft",
        intro: 'You have been invited to create a Soundloft account. Accept to get started.',
        button: 'Accept the invitation',
        outro: "If you weren't expecting this invitation, you can ignore this email.",
      };
  }
}

export function renderAuthMail(kind: AuthMailKind, input: AuthMailInput): MailMessage {
  const c = copyFor(kind, input);
  const link = input.link ? escapeHtml(input.link) : '';
  const text = [
    'Soundloft',
    '',
    c.heading,
    '',
    c.intro,
    '',
    ...(input.link
      ? [`${c.button}: ${input.link}`, '', `Or enter this code: ${input.otp ?? ''}`, '']
      : input.otp
        ? [`Your code: ${input.otp}`, '']
        : []),
    ...(input.otp
      ? [`The ${input.link ? 'link and the code expire' : 'code expires'} in one hour.`]
      : []),
    c.outro,
  ].join('\n');
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${escapeHtml(c.subject)}</title></head>
<body style="margin:0;padding:0;background:#0f0f14;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;color:#e8e8ee">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#0f0f14;padding:32px 12px">
<tr><td align="center">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:520px;background:#1a1a22;border-radius:16px;padding:32px">
<tr><td style="font-size:22px;font-weight:800;letter-spacing:-0.5px;color:#a78bfa">&#9835; Soundloft</td></tr>
<tr><td style="padding-top:24px;font-size:20px;font-weight:700;color:#ffffff">${escapeHtml(c.heading)}</td></tr>
<tr><td style="padding-top:12px;font-size:15px;line-height:1.6;color:#c9c9d6">${escapeHtml(c.intro)}</td></tr>
${link ? `<tr><td style="padding-top:24px"><a href="${link}" style="display:inline-block;background:#7c3aed;color:#ffffff;text-decoration:none;font-weight:600;padding:12px 22px;border-radius:10px">${escapeHtml(c.button)}</a></td></tr>` : ''}
${input.otp ? `<tr><td style="padding-top:20px;font-size:14px;color:#c9c9d6">${link ? 'Or enter this code' : 'Your code'}: <strong style="font-size:18px;letter-spacing:3px;color:#ffffff">${escapeHtml(input.otp)}</strong></td></tr>` : ''}
<tr><td style="padding-top:20px;font-size:12px;line-height:1.5;color:#8a8a99">${input.otp ? `The ${link ? 'link and the code expire' : 'code expires'} in one hour. ` : ''}${escapeHtml(c.outro)}${link ? `<br>Link not working? Paste this into your browser:<br><span style="word-break:break-all;color:#a78bfa">${link}</span>` : ''}</td></tr>
</table>
</td></tr></table>
</body></html>`;
  return { to: input.to, subject: c.subject, text, html, links: input.link ? [input.link] : [] };
}
