/**
 * The copyright flow's e-mails (docs/trust-and-safety.md), rendered from the rows the database
 * queued in `public.mail_outbox` (template + params): plain text and a simple HTML copy of it.
 * The uploader's e-mails never carry the claimant's e-mail, address or phone (they are not in
 * their params: migration 20261130011000_copyright_flow.sql).
 */
import type { MailMessage } from '../mail';
import { escapeHtml } from '../lib/escape-html';

interface TrackRef {
  id: string;
  title: string;
  artist: string;
}

export interface OutboxMail {
  id: number;
  template: string;
  to_email: string;
  params: Record<string, unknown>;
}

const day = (value: unknown): string =>
  typeof value === 'string' && value
    ? `${new Date(value).toUTCString().replace(/:\d\d GMT$/, ' UTC')}`
    : 'unknown';

function trackLines(params: Record<string, unknown>, origin: string): string[] {
  const tracks = Array.isArray(params.tracks) ? (params.tracks as TrackRef[]) : [];
  return tracks.map((t) => `- "${t.title}" by ${t.artist}: ${origin}/track/${t.id}`);
}

function text(p: Record<string, unknown>, key: string): string {
  const value = p[key];
  return typeof value === 'string' ? value : '';
}

/** Subject and body lines of one queued mail; null for a template this server does not know. */
function copyOf(
  mail: OutboxMail,
  origin: string,
): { subject: string; lines: string[]; links: string[] } | null {
  const p = mail.params;
  const tracks = trackLines(p, origin);
  const counterLink = `${origin}/copyright/counter/${text(p, 'notice_id')}`;
  // Without signing in (a banned uploader cannot): the single-use link of public.action_links
  // (params.action_token, dropped once sent); the token is in the fragment, never sent in a
  // request line.
  const counterToken = mail.template === 'copyright_removed' ? text(p, 'action_token') : '';
  const counterByLink = counterToken ? `${counterLink}/link#t=${counterToken}` : null;
  switch (mail.template) {
    case 'copyright_acknowledgement': {
      const ids = Array.isArray(p.notice_ids) ? (p.notice_ids as string[]) : [];
      return {
        subject: 'We received your copyright notice',
        lines: [
          `Dear ${text(p, 'claimant_name')},`,
          '',
          `We received your copyright notice on ${day(p.received_at)} (reference${ids.length > 1 ? 's' : ''}: ${ids.join(', ')}).`,
          '',
          'The work you describe:',
          text(p, 'work'),
          '',
          'The tracks you named:',
          ...tracks,
          '',
          `We review it and remove the tracks by ${day(p.removal_due)} at the latest (5 business days). The uploader is told of the removal and may send a counter-notice, which we forward to you.`,
        ],
        links: [],
      };
    }
    case 'copyright_removed':
      return {
        subject: 'Your track was removed after a copyright notice',
        lines: [
          `On ${day(p.removed_at)} we removed the following track(s) after a copyright notice received on ${day(p.received_at)} (reference ${text(p, 'notice_id')}):`,
          ...tracks,
          '',
          `Claimant: ${text(p, 'claimant_name')}`,
          'The work they claim:',
          text(p, 'work'),
          '',
          'While removed, the track cannot be found, played or downloaded and earns nothing. This notice is a copyright strike on your account.',
          '',
          'If you believe the removal is a mistake or a misidentification, you can send a counter-notice. We forward it to the claimant, and restore the track after 10 business days unless they tell us they have filed a court action:',
          counterLink,
          ...(counterByLink
            ? [
                '',
                'Or without signing in, with this link for you only (valid 30 days, used once; do not share it):',
                counterByLink,
              ]
            : []),
        ],
        links: counterByLink ? [counterLink, counterByLink] : [counterLink],
      };
    case 'copyright_counter_notice': {
      const c = (p.counter ?? {}) as Record<string, unknown>;
      // The claimant's single-use link (public.action_links, purpose legal_action); in the
      // fragment, so the token never reaches a server log or a Referer header.
      const token = text(p, 'action_token');
      const legalLink = token ? `${origin}/copyright/legal-action#${token}` : null;
      return {
        subject: 'A counter-notice to your copyright notice',
        lines: [
          `Dear ${text(p, 'claimant_name')},`,
          '',
          `The uploader of the track(s) your notice ${text(p, 'notice_id')} named sent the counter-notice below (17 U.S.C. §512(g)(3)).`,
          ...tracks,
          '',
          `Name: ${text(c, 'full_name')}`,
          `Address: ${text(c, 'address')}`,
          ...(text(c, 'phone') ? [`Phone: ${text(c, 'phone')}`] : []),
          `Email: ${text(c, 'email')}`,
          'Why they believe the removal was a mistake:',
          text(c, 'explanation'),
          '',
          'They state, under penalty of perjury, that they have a good faith belief that the material was removed as a result of mistake or misidentification, and consent to the jurisdiction of the Federal District Court for their address (or, outside the United States, any judicial district in which Soundloft may be found), and to accept service of process from you.',
          `Signature: ${text(c, 'signature')}`,
          '',
          `We restore the track(s) on ${day(p.restore_due)} (10 business days) unless, before then, you tell us that you have filed an action seeking a court order against the uploader.`,
          ...(legalLink
            ? [
                'Record the court action here (no account needed; the link works once, until that date):',
                legalLink,
              ]
            : ['Reply to this email with the filing.']),
        ],
        links: legalLink ? [legalLink] : [],
      };
    }
    case 'copyright_legal_action':
      return {
        subject: 'Your track stays removed: a court action was filed',
        lines: [
          `The claimant of notice ${text(p, 'notice_id')} told us that they have filed an action seeking a court order. The track(s) stay removed:`,
          ...tracks,
          '',
          `Note: ${text(p, 'reason')}`,
        ],
        links: [],
      };
    case 'copyright_restored':
      return {
        subject: 'Your track is back',
        lines: [
          `The track(s) removed after notice ${text(p, 'notice_id')} are available again:`,
          ...tracks,
          '',
          text(p, 'reason'),
          'The strike of this notice is lifted.',
        ],
        links: [],
      };
    case 'copyright_restored_claimant':
      return {
        subject: 'The tracks of your copyright notice were restored',
        lines: [
          `Dear ${text(p, 'claimant_name')},`,
          '',
          `The track(s) removed after your notice ${text(p, 'notice_id')} are available again:`,
          ...tracks,
          '',
          text(p, 'reason'),
        ],
        links: [],
      };
    case 'copyright_rejected':
      return {
        subject: 'Your copyright notice was not accepted',
        lines: [
          `Dear ${text(p, 'claimant_name')},`,
          '',
          `We did not act on your notice ${text(p, 'notice_id')}:`,
          text(p, 'reason'),
          '',
          'You may send a new notice with the missing information.',
        ],
        links: [],
      };
    default:
      return null;
  }
}

export function renderCopyrightMail(mail: OutboxMail, origin: string): MailMessage | null {
  const base = origin.replace(/\/+$/, '');
  const copy = copyOf(mail, base);
  if (!copy) return null;
  const body = ['Soundloft', '', ...copy.lines].join('\n');
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${escapeHtml(copy.subject)}</title></head>
<body style="margin:0;padding:24px;background:#ffffff;color:#1b1b22;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif">
<h1 style="font-size:20px">${escapeHtml(copy.subject)}</h1>
<pre style="white-space:pre-wrap;font-family:inherit;font-size:15px;line-height:1.6">${escapeHtml(copy.lines.join('\n'))}</pre>
</body></html>`;
  return { to: mail.to_email, subject: copy.subject, text: body, html, links: copy.links };
}
