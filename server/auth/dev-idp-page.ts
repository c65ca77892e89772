/** The development identity provider's consent page (HTML, no scripts, no remote assets). */
import { escapeHtml } from '../lib/escape-html';

const CARRIED = [
  'client_id',
  'redirect_uri',
  'response_type',
  'scope',
  'state',
  'nonce',
  'code_challenge',
  'code_challenge_method',
];

export function renderConsentPage(
  query: Record<string, string | undefined>,
  recent: { name: string | null; email: string }[],
): string {
  const hidden = CARRIED.filter((k) => query[k] !== undefined)
    .map((k) => `<input type="hidden" name="${k}" value="${escapeHtml(query[k] ?? '')}">`)
    .join('\n');
  const accounts = recent
    .map(
      (a) => `<form method="post" action="authorize" class="account">
${hidden}
<input type="hidden" name="name" value="${escapeHtml(a.name ?? '')}">
<input type="hidden" name="email" value="${escapeHtml(a.email)}">
<button type="submit" name="action" value="allow"><strong>${escapeHtml(a.name ?? a.email)}</strong><span>${escapeHtml(a.email)}</span></button>
</form>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Development sign-in — not Google</title>
<style>
*{box-sizing:border-box}
body{margin:0;font-family:system-ui,sans-serif;background:#f4f4f7;color:#1b1b22}
.banner{background:#facc15;padding:14px 20px;font-weight:700;text-align:center}
main{max-width:440px;margin:32px auto;padding:0 16px}
.card{background:#fff;border-radius:14px;padding:24px;box-shadow:0 1px 4px #0002}
h1{font-size:22px;margin:0 0 8px}
p{line-height:1.5;color:#444}
label{display:block;font-size:14px;font-weight:600;margin:14px 0 6px}
input[type=text],input[type=email]{width:100%;padding:10px 12px;border:1px solid #bbb;border-radius:8px;font-size:15px}
.actions{display:flex;gap:10px;margin-top:18px}
button{cursor:pointer;font-size:15px;border-radius:8px;padding:10px 16px;border:1px solid #7c3aed}
.primary{background:#7c3aed;color:#fff}
.secondary{background:#fff;color:#7c3aed}
.account button{display:flex;flex-direction:column;align-items:flex-start;width:100%;background:#fff;border:1px solid #ddd;margin:6px 0;text-align:left}
.account span{font-size:13px;color:#555}
h2{font-size:15px;margin:20px 0 4px}
</style></head>
<body>
<div class="banner" role="note">Development sign-in — not Google</div>
<main><div class="card">
<h1>Development sign-in — not Google</h1>
<p>This server has no Google credentials (GOOGLE_CLIENT_ID / GOOGLE_CLIENT_SECRET), so
"Continue with Google" uses this local development identity provider. Choose who you want to be:
no password is checked.</p>
${accounts ? `<h2>Recent development accounts</h2>${accounts}` : ''}
<h2>${accounts ? 'Or another account' : 'Account'}</h2>
<form method="post" action="authorize">
${hidden}
<label for="name">Name</label>
<input id="name" name="name" type="text" autocomplete="name" placeholder="Ada Lovelace" maxlength="100">
<label for="email">E-mail</label>
<input id="email" name="email" type="email" autocomplete="email" required placeholder="ada@example.com">
<div class="actions">
<button class="primary" type="submit" name="action" value="allow">Continue</button>
<button class="secondary" type="submit" name="action" value="cancel" formnovalidate>Cancel</button>
</div>
</form>
</div></main>
</body></html>`;
}
