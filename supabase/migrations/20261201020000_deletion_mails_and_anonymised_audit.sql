-- Issue 32, the rest of "leaving" (docs/privacy-rights.md):
-- 1. A mail when a deletion is scheduled (the date, and how to cancel: signing in offers "Keep my
--    account") and when it is cancelled, written in the same transaction as the change through
--    the existing outbox (enqueue_user_mail; server/mail/outbox.ts sends it).
-- 2. The admin audit log and the copyright notices keep their rows after an account is deleted,
--    but no longer name the person: anonymise_account_references(user, former_account) points
--    them at the pseudonym the anonymised ledger uses (a fresh random id per deleted account),
--    and erases the id, e-mail and name from the before/after documents.

-- ---------------------------------------------------------------------------------------------
-- 1. Deletion mails: triggers on account_deletions, so schedule_account_deletion (a new row) and
-- cancel_account_deletion (a queued row deleted by its owner) mail in their own transaction.
create or replace function public.account_deletions_mail() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    perform public.enqueue_user_mail(new.user_id, 'account.deletion_scheduled',
      'Your Soundloft account will be deleted on ' || public.moderation_date_text(new.run_after),
      'You asked us to delete your Soundloft account. It will be deleted on '
        || public.moderation_date_text(new.run_after) || ': your profile, uploads and their '
        || 'files, playlists, likes, follows and listening history. Earnings and payout records '
        || 'are kept, anonymised, for accounting.'
        || E'\n\n' || 'Changed your mind? Sign in before then at {app}/login and choose '
        || '"Keep my account" (or open {app}/settings/privacy).'
        || E'\n\n' || 'If you did not ask for this, sign in, keep your account and change your '
        || 'password: someone may be signed in as you.');
  -- A cancel: the owner removed a queued row. Not the deletion itself (its row is 'running' and
  -- goes with auth.users, which is then no longer there to mail).
  elsif old.state = 'queued' and exists (select 1 from auth.users u where u.id = old.user_id) then
    perform public.enqueue_user_mail(old.user_id, 'account.deletion_cancelled',
      'Your Soundloft account will not be deleted',
      'You chose to keep your Soundloft account. The deletion that was scheduled for '
        || public.moderation_date_text(old.run_after) || ' is cancelled and nothing was deleted.'
        || E'\n\n' || 'If this was not you, change your password at {app}/settings.');
  end if;
  return null;
end
$$;
revoke execute on function public.account_deletions_mail() from public, anon, authenticated;
create trigger account_deletions_mail after insert or delete on public.account_deletions
  for each row execute function public.account_deletions_mail();

-- ---------------------------------------------------------------------------------------------
-- 2. Rows that outlive a deleted account no longer name it.
alter table public.admin_audit_log add column former_actor uuid;
alter table public.admin_audit_log add column anonymised_at timestamptz;
alter table public.copyright_notices add column former_uploader uuid;

-- Every string in a JSON document with the id and e-mail replaced wherever they occur (any case)
-- and a string that is exactly the name replaced whole (a short name inside other words is not a
-- reference to the person).
create or replace function public.jsonb_erase_person(
  p_doc jsonb, p_id text, p_former text, p_email text, p_name text
) returns jsonb
language plpgsql immutable
set search_path = ''
as $$
declare
  v_text text;
begin
  if p_doc is null then
    return null;
  end if;
  case jsonb_typeof(p_doc)
    when 'object' then
      return coalesce((select jsonb_object_agg(e.key,
                         public.jsonb_erase_person(e.value, p_id, p_former, p_email, p_name))
                         from jsonb_each(p_doc) e), '{}'::jsonb);
    when 'array' then
      return coalesce((select jsonb_agg(public.jsonb_erase_person(e.value, p_id, p_former, p_email, p_name)
                         order by e.n)
                         from jsonb_array_elements(p_doc) with ordinality e(value, n)), '[]'::jsonb);
    when 'string' then
      v_text := p_doc #>> '{}';
      if p_name is not null and btrim(p_name) <> '' and lower(btrim(v_text)) = lower(btrim(p_name)) then
        return to_jsonb('former account'::text);
      end if;
      v_text := replace(v_text, p_id, p_former);
      if p_email is not null and p_email <> '' then
        v_text := regexp_replace(v_text, regexp_replace(p_email, '([.^$*+?()\[\]{}|\\-])', '\\\1', 'g'),
                                 'erased with the account', 'gi');
      end if;
      return to_jsonb(v_text);
    else
      return p_doc;
  end case;
end
$$;
revoke execute on function public.jsonb_erase_person(jsonb, text, text, text, text) from public, anon, authenticated;

-- Called by the deletion job (server/account/delete-account.ts) in its last transaction, before
-- auth.users goes (actor_id and uploader_id would be nulled by their foreign keys, losing which
-- rows were one account's).
create or replace function public.anonymise_account_references(p_user uuid, p_former uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_id text := p_user::text;
  v_email text;
  v_name text;
begin
  select u.email, p.name into v_email, v_name
    from auth.users u left join public.profiles p on p.id = u.id
   where u.id = p_user;
  update public.admin_audit_log a
     set former_actor = case when a.actor_id = p_user then p_former else a.former_actor end,
         actor_id = case when a.actor_id = p_user then null else a.actor_id end,
         target_id = replace(a.target_id, v_id, p_former::text),
         before = public.jsonb_erase_person(a.before, v_id, p_former::text, v_email, v_name),
         after = public.jsonb_erase_person(a.after, v_id, p_former::text, v_email, v_name),
         anonymised_at = now()
   where a.actor_id = p_user
      or a.target_id = v_id
      or strpos(coalesce(a.before::text, '') || coalesce(a.after::text, ''), v_id) > 0
      or (v_email is not null and
          strpos(lower(coalesce(a.before::text, '') || coalesce(a.after::text, '')), lower(v_email)) > 0);
  update public.copyright_notices n
     set former_uploader = p_former, uploader_id = null
   where n.uploader_id = p_user;
end
$$;
revoke execute on function public.anonymise_account_references(uuid, uuid) from public, anon, authenticated;
grant execute on function public.anonymise_account_references(uuid, uuid) to service_role;
