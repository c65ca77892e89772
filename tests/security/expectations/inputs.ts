/**
 * The inputs of every edge function (`supabase/functions/<name>`) and every RPC the app calls
 * (`.rpc('<name>'` in src/): what a sane call sends, and the kind of each field.
 * `hostile-input.test.ts` FAILS for a function or an app-called RPC without an entry here, then
 * replaces each field in turn by hostile values of the wrong type, null, huge strings, huge
 * numbers, arrays and objects for scalars, and adds an unknown field: every such call must be a
 * 4xx with a clear message and change nothing.
 *
 * Booleans are declared `json` (its hostile values are all wrong for a boolean; `enum`'s include true).
 * A kind ending in `?` is optional: null and absence are fine there, so null is not tried.
 * `free-text` is text an RPC takes as it is (a JSON number or object arrives as its text, as on
 * PostgREST): only its length and null are attacked; `enum` is text with a fixed set of values.
 */
import type { World } from '../support/world';

export type Kind =
  'uuid' | 'enum' | 'free-text' | 'email' | 'int' | 'numeric' | 'date' | 'list' | 'json';
export type Field = Kind | `${Kind}?`;

export interface InputCase {
  /** Who calls: one who may (the owner, or an admin for admin RPCs). */
  as: 'owner' | 'admin';
  sane: (w: World) => Record<string, unknown>;
  fields: Record<string, Field>;
  headers?: Record<string, string>;
}

const UUID0 = '00000000-0000-4000-8000-000000000000';

/** A counter-notice (signed in, or by the removal e-mail's link). */
export const COUNTER_NOTICE: { sane: Record<string, unknown>; fields: Record<string, Field> } = {
  sane: {
    p_notice: UUID0,
    p_full_name: 'Owen Owner',
    p_address: '2 Studio Lane',
    p_phone: '',
    p_email: 'owen@owner.test',
    p_explanation: 'Mine.',
    p_good_faith_mistake: true,
    p_consent_to_jurisdiction: true,
    p_signature: 'Owen Owner',
  },
  fields: {
    p_notice: 'uuid',
    p_full_name: 'free-text',
    p_address: 'free-text',
    p_phone: 'free-text?',
    p_email: 'email',
    p_explanation: 'free-text',
    p_good_faith_mistake: 'json',
    p_consent_to_jurisdiction: 'json',
    p_signature: 'free-text',
  },
};

export const EDGE_FUNCTIONS: Record<string, InputCase> = {
  'cancel-subscription': {
    as: 'owner',
    sane: (w) => ({ userId: w.owner.id }),
    fields: { userId: 'uuid?' },
  },
  // Public (no sign-in): the copyright notice form (docs/trust-and-safety.md).
  'copyright-notice': {
    as: 'owner',
    sane: (w) => ({
      claimantName: 'Clara Claimant',
      email: 'clara@rights.test',
      work: 'My song',
      trackUrls: [`/track/${w.trackX}`],
      goodFaith: true,
      accuracy: true,
      signature: 'Clara Claimant',
    }),
    fields: {
      claimantName: 'free-text',
      email: 'email',
      address: 'free-text?',
      phone: 'free-text?',
      work: 'free-text',
      trackUrls: 'list',
      goodFaith: 'json',
      accuracy: 'json',
      signature: 'free-text',
    },
  },
  'create-checkout-session': {
    as: 'owner',
    sane: (w) => ({ planId: 'basic', userId: w.owner.id, email: 'a@b.test', promoCode: null }),
    fields: { planId: 'enum', userId: 'uuid?', email: 'email?', promoCode: 'free-text?' },
  },
  // A wrong password is a 400 too; the sane call schedules nothing for long (the owner of the
  // fuzz world has no balance), and the fuzzed ones must change nothing.
  'delete-account': {
    as: 'owner',
    sane: () => ({ password: 'not-the-password' }),
    fields: { password: 'free-text?' },
  },
  'get-recommendations': {
    as: 'owner',
    sane: (w) => ({ recentlyPlayed: [{ id: w.trackX, artist: 'A', genre: 'Pop' }], limit: 5 }),
    fields: { recentlyPlayed: 'list?', limit: 'int?' },
  },
  // Public, asks nothing: a POST body may only be empty.
  'payments-status': { as: 'owner', sane: () => ({}), fields: {} },
  'request-withdrawal': {
    as: 'owner',
    sane: () => ({ amount: '5.00', method: 'paypal', details: 'artist@paypal.test' }),
    fields: { amount: 'numeric', method: 'enum', details: 'email' },
  },
  spleeter: {
    as: 'owner',
    sane: () => ({ audioUrl: 'https://example.test/a.mp3' }),
    fields: { audioUrl: 'free-text' },
  },
  'stripe-webhook': {
    as: 'owner',
    // Not signed by Stripe: refused whatever the body says.
    headers: { 'stripe-signature': 't=1,v1=00' },
    sane: () => ({ id: 'evt_1', type: 'invoice.paid', data: { object: {} } }),
    fields: { id: 'free-text', type: 'free-text', data: 'json' },
  },
};

export const APP_RPCS: Record<string, InputCase> = {
  admin_access: { as: 'admin', sane: () => ({}), fields: {} },
  admin_stats: { as: 'admin', sane: () => ({}), fields: {} },
  admin_artists: {
    as: 'admin',
    sane: () => ({ page_size: 10, page_offset: 0 }),
    fields: { page_size: 'int?', page_offset: 'int?' },
  },
  admin_refused_listeners: {
    as: 'admin',
    sane: () => ({ p_limit: 10 }),
    fields: { p_limit: 'int?' },
  },
  admin_refused_tracks: { as: 'admin', sane: () => ({ p_limit: 10 }), fields: { p_limit: 'int?' } },
  process_withdrawal: {
    as: 'admin',
    sane: () => ({ withdrawal_id: UUID0, status: 'completed' }),
    fields: { withdrawal_id: 'uuid', status: 'enum' },
  },
  // The moderation queue and appeals (docs/trust-and-safety.md).
  admin_moderation_queue: {
    as: 'admin',
    sane: () => ({ p_kind: 'report', p_status: 'open', p_overdue: false, p_limit: 10 }),
    fields: { p_kind: 'enum?', p_status: 'enum?', p_limit: 'int?' },
  },
  admin_sanction_from_report: {
    as: 'admin',
    sane: () => ({ p_report: UUID0, p_kind: 'warning', p_reason: 'Spam.', p_remove_track: true }),
    fields: { p_report: 'uuid', p_kind: 'enum', p_reason: 'free-text', p_days: 'int?' },
  },
  admin_answer_appeal: {
    as: 'admin',
    sane: () => ({ p_appeal: UUID0, p_decision: 'uphold', p_reason: 'Checked again.' }),
    fields: { p_appeal: 'uuid', p_decision: 'enum', p_reason: 'free-text' },
  },
  file_appeal: {
    as: 'owner',
    sane: () => ({ p_statement: 'This decision was a mistake.', p_sanction: UUID0 }),
    fields: { p_statement: 'free-text', p_sanction: 'uuid?', p_track: 'uuid?' },
  },
  // Public: null (nobody) answers null, not suspended.
  suspended_until: {
    as: 'owner',
    sane: (w) => ({ p_user: w.owner.id }),
    fields: { p_user: 'uuid?' },
  },
  resolve_track_report: {
    as: 'admin',
    sane: () => ({ report_id: UUID0, action: 'dismiss', reason: 'spam' }),
    fields: { report_id: 'uuid', action: 'enum', reason: 'free-text?' },
  },
  // Action links (docs/trust-and-safety.md § Action links): no sign-in, the token decides.
  action_link_open: {
    as: 'owner',
    sane: () => ({ p_token: 'a'.repeat(64) }),
    fields: { p_token: 'free-text' },
  },
  copyright_counter_notify_by_link: {
    as: 'owner',
    sane: () => ({ p_token: 'a'.repeat(64), ...COUNTER_NOTICE.sane }),
    fields: { p_token: 'free-text', ...COUNTER_NOTICE.fields },
  },
  file_appeal_by_link: {
    as: 'owner',
    sane: () => ({
      p_token: 'a'.repeat(64),
      p_sanction: UUID0,
      p_statement: 'A mistake, I think.',
    }),
    fields: { p_token: 'free-text', p_sanction: 'uuid', p_statement: 'free-text' },
  },
  copyright_counter_notify: {
    as: 'owner',
    sane: () => COUNTER_NOTICE.sane,
    fields: COUNTER_NOTICE.fields,
  },
  // The claimant's legal-action link (no sign-in; the token is the authority).
  copyright_claimant_legal_action_info: {
    as: 'owner',
    sane: () => ({ p_token: 'a'.repeat(64) }),
    fields: { p_token: 'free-text' },
  },
  copyright_claimant_record_legal_action: {
    as: 'owner',
    sane: () => ({
      p_token: 'a'.repeat(64),
      p_court: 'U.S. District Court, S.D.N.Y.',
      p_case_reference: '1:26-cv-01234',
      p_statement: 'We filed a complaint for copyright infringement.',
      p_confirmed: true,
      p_signature: 'Clara Claimant',
    }),
    fields: {
      p_token: 'free-text',
      p_court: 'free-text',
      p_case_reference: 'free-text',
      p_statement: 'free-text',
      p_confirmed: 'json',
      p_signature: 'free-text',
    },
  },
  ...Object.fromEntries(
    [
      'copyright_remove',
      'copyright_restore',
      'copyright_reject',
      'copyright_record_legal_action',
    ].map((name) => [
      name,
      {
        as: 'admin' as const,
        sane: () => ({ p_notice: UUID0, p_reason: 'Valid notice.' }),
        fields: { p_notice: 'uuid' as const, p_reason: 'free-text' as const },
      },
    ]),
  ),
  apply_mutations: {
    as: 'owner',
    sane: () => ({ p_client_id: 'device-1', p_mutations: [] }),
    fields: { p_client_id: 'free-text', p_mutations: 'list' },
  },
  caller_at_upload_limit: { as: 'owner', sane: () => ({}), fields: {} },
  // docs/privacy-rights.md: they take no argument.
  cancel_account_deletion: { as: 'owner', sane: () => ({}), fields: {} },
  request_data_export: { as: 'owner', sane: () => ({}), fields: {} },
  // Account security (docs/account.md).
  create_mfa_recovery_codes: { as: 'owner', sane: () => ({}), fields: {} },
  mfa_recovery_codes_left: { as: 'owner', sane: () => ({}), fields: {} },
  use_mfa_recovery_code: {
    as: 'owner',
    sane: () => ({ p_code: '1a2b-3c4d-5e6f-7a8b' }),
    fields: { p_code: 'free-text' },
  },
  my_sessions: { as: 'owner', sane: () => ({}), fields: {} },
  end_my_session: {
    as: 'owner',
    sane: () => ({ p_session: UUID0 }),
    fields: { p_session: 'uuid' },
  },
  artist_insights: {
    as: 'owner',
    sane: () => ({ p_period: '30d' }),
    fields: { p_period: 'enum?', p_track: 'uuid?' },
  },
  record_play_source: {
    as: 'owner',
    sane: (w) => ({ track_id: w.trackX, session_id: 'fuzz-session', source: 'explore' }),
    fields: { track_id: 'uuid', session_id: 'free-text', source: 'enum', playlist_id: 'uuid?' },
  },
  my_earnings: {
    as: 'owner',
    sane: () => ({ days: 30, months: 12 }),
    fields: { days: 'int?', months: 'int?' },
  },
  my_earnings_statement: {
    as: 'owner',
    sane: () => ({ month: '2026-01-01' }),
    fields: { month: 'date' },
  },
  plan_allows_offline: {
    as: 'owner',
    sane: (w) => ({ p_user: w.owner.id }),
    fields: { p_user: 'uuid' },
  },
  renew_track_downloads: {
    as: 'owner',
    sane: () => ({ device_id: 'device-1' }),
    fields: { device_id: 'free-text?' },
  },
  search_catalogue: {
    as: 'owner',
    sane: () => ({ q: 'owner', max_results: 10 }),
    // Blank or null text finds nothing (the dropdown before typing).
    fields: { q: 'free-text?', max_results: 'int?' },
  },
  search_tracks: {
    as: 'owner',
    sane: () => ({ q: 'owner', max_results: 10 }),
    // An empty or null text lists the newest tracks (the search page before typing).
    fields: { q: 'free-text?', max_results: 'int?' },
  },
};
