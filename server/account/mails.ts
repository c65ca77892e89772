/** The e-mails of the account jobs: the export's link (HTML and text, no remote content). */
import type { MailMessage } from '../mail';
import { escapeHtml } from '../lib/escape-html';

export function exportReadyMail(to: string, link: string): MailMessage {
  const text = [
    'Your Soundloft data export is ready.',
    '',
    `Download it here (the link works for 7 days): ${link}`,
    '',
    "If you didn't ask for an export, change your password: someone may be signed in as you.",
  ].join('\n');
  const html = `<!doctype html><html><body style="font-family:sans-serif;color:#111">
<p style="font-weight:700;font-size:20px">Soundloft</p>
<h1 style="font-size:18px">Your data export is ready</h1>
<p>Download the archive of your Soundloft data. The link works for 7 days.</p>
<p><a href="${escapeHtml(link)}" style="display:inline-block;padding:10px 16px;background:#6d28d9;color:#fff;border-radius:6px;text-decoration:none">Download your data</a></p>
<p style="color:#555">If you didn't ask for an export, change your password: someone may be signed in as you.</p>
</body></html>`;
  return { to, subject: 'Your Soundloft data export is ready', text, html, links: [link] };
}
