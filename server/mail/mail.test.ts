import { describe, expect, it } from 'vitest';
import { createDevMailApp, createDevMailbox, createMailer, extractLinks, renderAuthMail } from '.';

const KINDS = ['confirmation', 'recovery', 'magic_link', 'email_change', 'invite'] as const;

describe('auth mail templates', () => {
  it('carry the link and the code in HTML and text, with no remote resources', () => {
    const link =
      'http://localhost:8787/auth/v1/verify?token=abc&type=signup&redirect_to=http%3A%2F%2Flocalhost%3A8787%2Fx';
    const subjects = new Set<string>();
    for (const kind of KINDS) {
      const mail = renderAuthMail(kind, {
        to: 'a@b.test',
        link,
        otp: '123456',
        newEmail: 'n@b.test',
      });
      subjects.add(mail.subject);
      expect(mail.subject).toMatch(/Soundloft/);
      expect(mail.text).toContain(link);
      expect(mail.text).toContain('123456');
      expect(mail.html).toContain(link.replaceAll('&', '&amp;'));
      expect(mail.html).toContain('Soundloft');
      expect(mail.html).not.toMatch(/<img|src=|url\(|<link|<script/i);
      expect(mail.links).toEqual([link]);
    }
    expect(subjects.size).toBe(KINDS.length);
    const code = renderAuthMail('reauthentication', { to: 'a@b.test', otp: '424242' });
    expect([code.links, code.text.includes('424242'), code.html.includes('<a ')]).toEqual([
      [],
      true,
      false,
    ]);
    expect(
      renderAuthMail('email_change', { to: 'a@b.test', link, otp: '1', newEmail: 'new@b.test' })
        .text,
    ).toContain('new@b.test');
  });

  it('escapes what it interpolates', () => {
    const mail = renderAuthMail('email_change', {
      to: 'a@b.test',
      link: 'http://x/?a="<b>',
      otp: '1',
      newEmail: '<script>@x.test',
    });
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toContain('"<b>');
  });
});

describe('mailers', () => {
  it('keeps a bounded development mailbox, newest first', async () => {
    const box = createDevMailbox({ capacity: 3, log: () => {} });
    for (let i = 0; i < 5; i++)
      await box.send({
        to: `u${i}@x.test`,
        subject: `s${i}`,
        text: `go http://x.test/${i}`,
        html: '',
      });
    expect(box.list().map((m) => m.subject)).toEqual(['s4', 's3', 's2']);
    expect(box.list()[0]).toMatchObject({
      to: 'u4@x.test',
      links: ['http://x.test/4'],
      id: expect.any(String),
    });
    expect(extractLinks('a http://a.test/x?y=1. and https://b.test')).toEqual([
      'http://a.test/x?y=1.',
      'https://b.test',
    ]);
  });

  it('uses SMTP when SMTP_URL is set, else the development mailbox', () => {
    expect(createMailer({}, { log: () => {} }).kind).toBe('dev');
    const smtp = createMailer({ SMTP_URL: 'smtp://user:pass@127.0.0.1:2525' });
    expect(smtp.kind).toBe('smtp');
    expect(smtp.list()).toEqual([]);
  });

  it('delivers through SMTP to a server', async () => {
    const { createServer } = await import('node:net');
    const received: string[] = [];
    const server = createServer((socket) => {
      let data = false;
      socket.write('220 test ESMTP\r\n');
      socket.on('data', (chunk) => {
        for (const line of chunk.toString().split('\r\n').filter(Boolean)) {
          if (data) {
            received.push(line);
            if (line === '.') {
              data = false;
              socket.write('250 queued\r\n');
            }
            continue;
          }
          const cmd = line.slice(0, 4).toUpperCase();
          if (cmd === 'EHLO') socket.write('250-test\r\n250 OK\r\n');
          else if (cmd === 'DATA') {
            data = true;
            socket.write('354 go\r\n');
          } else if (cmd === 'QUIT') socket.end('221 bye\r\n');
          else socket.write('250 OK\r\n');
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    try {
      const mailer = createMailer({
        SMTP_URL: `smtp://127.0.0.1:${port}`,
        SMTP_FROM: 'Soundloft <hi@soundloft.test>',
      });
      await mailer.send(
        renderAuthMail('recovery', { to: 'r@x.test', link: 'http://x.test/reset', otp: '654321' }),
      );
      const message = received.join('\n');
      expect(message).toContain('Subject: Reset your Soundloft password');
      expect(message).toContain('To: r@x.test');
      expect(message).toContain('654321');
    } finally {
      server.close();
    }
  });
});

describe('development mailbox app', () => {
  it('serves /mail.json (newest first, ?to= filter) and a labelled HTML page', async () => {
    const box = createDevMailbox({ log: () => {} });
    await box.send({ to: 'a@x.test', subject: 'first', text: 'http://x.test/1', html: '<p>1</p>' });
    await box.send({
      to: 'b@x.test',
      subject: '<second>',
      text: 'http://x.test/2',
      html: '<p>2</p>',
    });
    const app = createDevMailApp(box);
    const json = await (await app.request('/mail.json')).json();
    expect(json.map((m: { subject: string }) => m.subject)).toEqual(['<second>', 'first']);
    expect(Object.keys(json[0]).sort()).toEqual([
      'createdAt',
      'html',
      'id',
      'links',
      'subject',
      'text',
      'to',
    ]);
    expect(await (await app.request('/mail.json?to=A@x.test')).json()).toHaveLength(1);
    const page = await app.request('/mail');
    const html = await page.text();
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(html).toContain('Development mailbox');
    expect(html).toContain('&lt;second&gt;');
    expect(html).toContain('<a href="http://x.test/2">');
    expect((await app.request('/mail.json', { method: 'DELETE' })).status).toBe(204);
    expect(box.list()).toEqual([]);
    const smtp = createDevMailApp(createMailer({ SMTP_URL: 'smtp://127.0.0.1:1' }));
    expect((await smtp.request('/mail.json')).status).toBe(404);
  });
});
