import { describe, expect, it } from 'vitest';
import { renderCopyrightMail } from './mail';

const removed = (params: Record<string, unknown>) =>
  renderCopyrightMail(
    {
      id: 1,
      template: 'copyright_removed',
      to_email: 'uploader@example.test',
      params: { notice_id: 'n-1', claimant_name: 'Clara', work: 'A song', tracks: [], ...params },
    },
    'https://soundloft.example/',
  )!;

describe('the removal e-mail', () => {
  it('carries the signed-in link and, with a token, the link that acts without signing in', () => {
    const token = 'ab'.repeat(32);
    const mail = removed({ action_token: token });
    expect(mail.links).toEqual([
      'https://soundloft.example/copyright/counter/n-1',
      `https://soundloft.example/copyright/counter/n-1/link#t=${token}`,
    ]);
    expect(mail.text).toContain(`/copyright/counter/n-1/link#t=${token}`);
  });

  it('has only the signed-in link without a token', () => {
    const mail = removed({});
    expect(mail.links).toEqual(['https://soundloft.example/copyright/counter/n-1']);
    expect(mail.text).not.toContain('#t=');
  });
});
