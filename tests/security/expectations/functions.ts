/**
 * Every `security definer` function of the public schema (they bypass RLS): who may call it over
 * /rest/v1/rpc. `functions.test.ts` reads the list from pg_proc and FAILS for a function without
 * an entry here, then calls each one as anon and as a user with hostile arguments.
 *
 * - `allowed`: callable; hostile arguments get a 2xx or a 4xx, never a 5xx, and change nothing
 *   of another user's;
 * - `refused`: every call is refused (no grant, or the function itself refuses: admins only);
 * - `trigger`: a trigger function, never exposed as an RPC (404).
 */
export type Access = 'allowed' | 'refused' | 'trigger';

export interface FunctionCase {
  anon: Access;
  /** Another signed-in user (not an admin). */
  user: Access;
  /** Default: as `user`. An admin's hostile arguments are checked for 5xx only. */
  admin?: Access;
}

const TRIGGER: FunctionCase = { anon: 'trigger', user: 'trigger' };
const USERS: FunctionCase = { anon: 'refused', user: 'allowed' };
const EVERYONE: FunctionCase = { anon: 'allowed', user: 'allowed' };
/** Admins only (the function checks is_admin()), or the server / service role only (no grant). */
const NOBODY: FunctionCase = { anon: 'refused', user: 'refused' };
/** Admins only: the function checks is_admin(). */
const ADMINS: FunctionCase = { anon: 'refused', user: 'refused', admin: 'allowed' };

export const FUNCTIONS: Record<string, FunctionCase> = {
  /** Account sanctions (docs/trust-and-safety.md): only admins create or lift them. */
  account_restriction: NOBODY,
  /** Action links (docs/trust-and-safety.md § Action links): whoever holds a mailed link's token
   *  (no sign-in; the function checks the token, its purpose, decision, expiry and use). */
  action_link_open: EVERYONE,
  action_link_issue: NOBODY,
  action_link_take: NOBODY,
  appeal_apply: NOBODY,
  copyright_apply_counter_notice: NOBODY,
  copyright_counter_notify_by_link: EVERYONE,
  file_appeal_by_link: EVERYONE,
  /** Repeat infringers: the strike trigger and the one copy of a sanction's effects. */
  copyright_strike_ladder: TRIGGER,
  sanction_apply: NOBODY,
  sanction_lift_apply: NOBODY,
  /** Held plays of new accounts (docs/plays.md): the release job's, the server's own connection. */
  account_banned: NOBODY,
  account_established: NOBODY,
  add_track_to_playlist: USERS,
  /** Business days and the test clock (docs/trust-and-safety.md): read-only, for everyone. */
  add_business_days: EVERYONE,
  app_clock: EVERYONE,
  admin_lift_sanction: ADMINS,
  /** The moderation queue and appeals (docs/trust-and-safety.md § Moderation queue). */
  admin_answer_appeal: ADMINS,
  admin_artists: ADMINS,
  admin_moderation_queue: ADMINS,
  admin_refused_listeners: ADMINS,
  admin_refused_tracks: ADMINS,
  admin_sanction_from_report: ADMINS,
  admin_sanction_user: ADMINS,
  admin_stats: ADMINS,
  account_deletions_mail: TRIGGER,
  /** The deletion job's: audit rows of a deleted account point at its pseudonym. */
  anonymise_account_references: NOBODY,
  apply_stripe_event: NOBODY,
  audit_admin_action: NOBODY,
  /** Whether the caller is at their monthly upload limit (the upload page asks after a 403). */
  caller_at_upload_limit: USERS,
  caller_quality_rank: EVERYONE,
  /** Your data and leaving (docs/privacy-rights.md): the caller's own export and deletion;
   *  only the server (delete-account, after the password) schedules a deletion. */
  cancel_account_deletion: USERS,
  /** Copyright (docs/trust-and-safety.md): admins decide; only the uploader counter-notifies. */
  /** The claimant's legal-action link: anyone with a valid token (the functions check it). */
  copyright_claimant_legal_action_info: EVERYONE,
  copyright_claimant_record_legal_action: EVERYONE,
  copyright_counter_notify: USERS,
  /** Trigger: the forwarding mail's token. */
  copyright_counter_notice_token: TRIGGER,
  copyright_record_legal_action: ADMINS,
  copyright_reject: ADMINS,
  copyright_remove: ADMINS,
  copyright_restore: ADMINS,
  /** A user's active copyright strikes: the user and admins get the count, others null. */
  copyright_strike_count: USERS,
  /** The public form's edge function calls it with the service role (rate limit, one transaction). */
  copyright_submit_notice: NOBODY,
  /** The deadline job (server/copyright/jobs.ts): the server only. */
  copyright_tick: NOBODY,
  can_edit_track: EVERYONE,
  enqueue_mail: NOBODY,
  enqueue_user_mail: NOBODY,
  /** A user appeals a decision about them (the function checks whose it is and the 30 days). */
  file_appeal: USERS,
  followers_count: TRIGGER,
  followers_mail: TRIGGER,
  followers_mail_forget: TRIGGER,
  handle_new_user: TRIGGER,
  handle_user_email_change: TRIGGER,
  increment_track_plays: USERS,
  is_active_account: EVERYONE,
  /** Two-factor in the database (docs/account.md): whether the caller owes the second factor;
   *  why an admin's powers are off (ADMIN_REQUIRE_MFA). */
  mfa_satisfied: EVERYONE,
  admin_access: USERS,
  /** The database's outgoing mail (server/copyright/jobs.ts): the server only. */
  mail_outbox_claim: NOBODY,
  mail_outbox_done: NOBODY,
  is_admin: EVERYONE,
  is_following: EVERYONE,
  link_stripe_customer: NOBODY,
  mail_appeal_step: TRIGGER,
  mail_sanction_decision: TRIGGER,
  may_contribute: EVERYONE,
  on_auth_user_admin_change: TRIGGER,
  owns_audio_object: USERS,
  plan_allows_offline: EVERYONE,
  plan_from_subscriptions: NOBODY,
  play_bound_refusal: NOBODY,
  play_cap_refusal: NOBODY,
  post_ledger_entry: NOBODY,
  process_withdrawal: ADMINS,
  profiles_check_featured: TRIGGER,
  profiles_pin_email: TRIGGER,
  recommend_tracks: EVERYONE,
  record_judged_play: NOBODY,
  record_offline_play: USERS,
  record_served_audio: NOBODY,
  refresh_admins: NOBODY,
  refuse_held_plays_of_banned: TRIGGER,
  renew_track_downloads: USERS,
  release_held_plays: NOBODY,
  request_data_export: USERS,
  request_withdrawal: USERS,
  resolve_track_report: ADMINS,
  retry_track_processing: USERS,
  schedule_account_deletion: NOBODY,
  sync_admin_emails: NOBODY,
  suspended_until: EVERYONE,
  sync_record_deletion: TRIGGER,
  track_of_object: NOBODY,
  tracks_after_insert: TRIGGER,
  tracks_audit_admin: TRIGGER,
  tracks_enforce_upload_limit: TRIGGER,
  tracks_queue_files: TRIGGER,
  tracks_queue_stems: TRIGGER,
  tracks_refuse_suspended: TRIGGER,
  tracks_remove_from_playlists: TRIGGER,
  /** The limit for any user: the trigger and the storage policy only (no grant). */
  upload_limit_reached: NOBODY,
  withdrawals_refuse_sanctioned: TRIGGER,
  /** Artist insights (docs/insights.md): an artist reads aggregates of their own tracks; the
   *  client names where a listen came from; the roll-up and its parts are the worker's. */
  artist_insights: USERS,
  record_play_source: USERS,
  attach_play_source: TRIGGER,
  forget_insights_listener: TRIGGER,
  forget_insights_scope: TRIGGER,
  note_playlist_track_adds: TRIGGER,
  insights_compute: NOBODY,
  insights_compute_sources: NOBODY,
  insights_listens: NOBODY,
  refresh_insights_rollups: NOBODY,
  /** Account security (docs/account.md): the caller's own recovery codes and sessions. */
  create_mfa_recovery_codes: USERS,
  mfa_recovery_codes_left: USERS,
  use_mfa_recovery_code: USERS,
  my_sessions: USERS,
  end_my_session: USERS,
};
