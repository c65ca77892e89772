import { describe, expect, it } from 'vitest';
import { renderOutboxMail, renderRow } from './outbox';

describe('renderOutboxMail', () => {
  it('puts the public URL in place of {app} and escapes the HTML copy', () => {
    const mail = renderOutboxMail(
      'u@example.test',
      'A warning <b>',
      'Reason: <script>alert(1)</script> & more\n\nAppeal: {app}/appeals',
      'https://soundloft.example/',
    );
    expect(mail.to).toBe('u@example.test');
    expect(mail.text).toBe(
      'Soundloft\n\nReason: <script>alert(1)</script> & more\n\nAppeal: https://soundloft.example/appeals',
    );
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; more');
    expect(mail.html).toContain('<title>A warning &lt;b&gt;</title>');
    expect(mail.html).toContain('https://soundloft.example/appeals');
  });
});

describe('a written mail with an action link', () => {
  const row = (params: Record<string, unknown>) => ({
    id: 1,
    template: 'sanction.ban',
    to_email: 'u@example.test',
    subject: 'Banned',
    body: 'Appeal: {app}/appeals/link#t={action_token}',
    params,
  });

  it('renders the token from params when sent', () => {
    const token = 'ab'.repeat(32);
    const mail = renderRow(row({ action_token: token }), 'https://soundloft.example');
    expect(mail.text).toContain(`https://soundloft.example/appeals/link#t=${token}`);
    expect(mail.links).toContain(`https://soundloft.example/appeals/link#t=${token}`);
  });

  it('refuses to send the link without its token', () => {
    expect(() => renderRow(row({}), 'https://soundloft.example')).toThrow(/link token/);
    expect(() => renderRow(row({ action_token: '{app}' }), 'https://x.test')).toThrow(/link token/);
  });
});
