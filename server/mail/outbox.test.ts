import { describe, expect, it } from 'vitest';
import { renderOutboxMail } from './outbox';

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
