/**
 * The development mailbox on the web: `GET /mail` (an HTML page) and `GET /mail.json`
 * (`[{id,to,subject,text,html,links,createdAt}]`, newest first; `?to=` filters by recipient).
 * Mount it at `/_dev`. It answers 404 when the mailer sends through SMTP.
 */
import { Hono } from 'hono';
import type { Mailer, StoredMail } from './mailer';
import { escapeHtml } from '../lib/escape-html';

function messageHtml(m: StoredMail): string {
  const links = m.links
    .map((l) => `<li><a href="${escapeHtml(l)}">${escapeHtml(l)}</a></li>`)
    .join('');
  return `<article>
<h2>${escapeHtml(m.subject)}</h2>
<p class="meta">To <strong>${escapeHtml(m.to)}</strong> · ${escapeHtml(m.createdAt)}</p>
${links ? `<ul class="links">${links}</ul>` : ''}
<pre>${escapeHtml(m.text)}</pre>
</article>`;
}

function pageHtml(messages: StoredMail[]): string {
  const body = messages.length
    ? messages.map(messageHtml).join('\n')
    : '<p class="empty">No messages yet. Sign up or ask for a password reset to see one here.</p>';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<meta name="robots" content="noindex">
<title>Development mailbox — Soundloft</title>
<style>
body{font-family:system-ui,sans-serif;margin:0;background:#f4f4f7;color:#1b1b22}
header{background:#facc15;color:#1b1b22;padding:16px 24px}
header h1{margin:0;font-size:20px}
header p{margin:4px 0 0;font-size:14px}
main{max-width:860px;margin:0 auto;padding:16px}
article{background:#fff;border-radius:12px;padding:16px 20px;margin:12px 0;box-shadow:0 1px 3px #0002}
h2{margin:0 0 4px;font-size:17px}
.meta{margin:0 0 8px;color:#555;font-size:13px}
.links a{word-break:break-all}
pre{white-space:pre-wrap;background:#f7f7f9;padding:12px;border-radius:8px;font-size:13px}
.empty{color:#555}
</style></head>
<body>
<header><h1>Development mailbox</h1>
<p>Not a real inbox: mail is kept here, in memory, because SMTP_URL is not set. Newest first.
JSON: <a href="mail.json">mail.json</a></p></header>
<main>${body}</main>
</body></html>`;
}

export function createDevMailApp(mailer: Mailer): Hono {
  const app = new Hono();
  const headers = { 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex' };
  const select = (to: string | undefined) => {
    const all = mailer.list();
    const wanted = to?.trim().toLowerCase();
    return wanted ? all.filter((m) => m.to.toLowerCase() === wanted) : all;
  };
  app.get('/mail', (c) => {
    if (mailer.kind !== 'dev') return c.text('Not found', 404);
    return c.html(pageHtml(select(c.req.query('to'))), 200, headers);
  });
  app.get('/mail.json', (c) => {
    if (mailer.kind !== 'dev') return c.json({ message: 'mail is sent through SMTP' }, 404);
    return c.json(select(c.req.query('to')), 200, headers);
  });
  app.delete('/mail.json', (c) => {
    if (mailer.kind !== 'dev') return c.json({ message: 'mail is sent through SMTP' }, 404);
    mailer.clear();
    return c.body(null, 204);
  });
  return app;
}
