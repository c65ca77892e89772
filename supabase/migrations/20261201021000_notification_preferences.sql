-- Notifications (issue 32, docs/account.md § Notifications): which e-mails a person may turn off.
--
-- Every mail sent before this migration is an account, security, data, moderation or copyright
-- mail: those are always sent (the page lists them with the reason). The one optional mail is
-- "new follower" (the spec's follows), added here: one per follower and followed account (a
-- later unfollow and follow again mails nothing new), on by default, off by the switch.
--
-- - public.notification_preferences: one row per user and optional kind that they set; no row
--   means the default (on). Read and written by the owner only (not admins: nothing to moderate),
--   the restrictive ban policy as every RLS table.
-- - public.mail_wanted(user, kind): false only for an optional kind the user turned off. The
--   outbox sender (server/mail/outbox.ts) asks it for every row when it sends, so a mail turned
--   off after it was queued is not sent either.

create or replace function public.optional_mail_kinds() returns text[]
language sql immutable parallel safe
set search_path = ''
as $$ select array['social.new_follower'] $$;

create table public.notification_preferences (
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  kind text not null check (kind = any (public.optional_mail_kinds())),
  enabled boolean not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (user_id, kind)
);

alter table public.notification_preferences enable row level security;
revoke all on public.notification_preferences from anon, authenticated;
grant select, delete on public.notification_preferences to authenticated;
-- update names every column: supabase-js upsert sets them all (the policies keep user_id the caller).
grant insert (user_id, kind, enabled), update (user_id, kind, enabled) on public.notification_preferences to authenticated;
create policy "notification_preferences: the owner reads" on public.notification_preferences
  for select to authenticated using (user_id = (select auth.uid()));
create policy "notification_preferences: the owner adds" on public.notification_preferences
  for insert to authenticated with check (user_id = (select auth.uid()));
create policy "notification_preferences: the owner changes" on public.notification_preferences
  for update to authenticated
  using (user_id = (select auth.uid())) with check (user_id = (select auth.uid()));
create policy "notification_preferences: the owner removes" on public.notification_preferences
  for delete to authenticated using (user_id = (select auth.uid()));
create policy "notification_preferences: not for banned accounts" on public.notification_preferences
  as restrictive for all to authenticated
  using ((select public.is_active_account())) with check ((select public.is_active_account()));
create trigger handle_timestamps before insert or update on public.notification_preferences
  for each row execute function public.handle_timestamps();

create or replace function public.mail_wanted(p_user uuid, p_kind text) returns boolean
language sql stable
set search_path = ''
as $$
  select p_user is null
      or not (p_kind = any (public.optional_mail_kinds()))
      or coalesce((select n.enabled from public.notification_preferences n
                    where n.user_id = p_user and n.kind = p_kind), true)
$$;
revoke execute on function public.mail_wanted(uuid, text) from public, anon, authenticated;

-- The outbox is searched per recipient and kind (the follower mail's once-only rule) and its
-- rows go with their recipient (the foreign key's cascade wants the index too).
create index moderation_mail_outbox_to_user_idx on public.moderation_mail_outbox (to_user, kind);

-- "New follower": queued with the follow, in its transaction, when the followed person wants it
-- and was never mailed about this follower (their profile link is in the body).
create or replace function public.followers_mail() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_name text;
  v_link text := '{app}/profile/' || new.follower_id::text;
begin
  if not public.mail_wanted(new.following_id, 'social.new_follower') then
    return null;
  end if;
  if exists (select 1 from public.moderation_mail_outbox o
              where o.to_user = new.following_id and o.kind = 'social.new_follower'
                and strpos(o.body, v_link) > 0) then
    return null;
  end if;
  select left(regexp_replace(coalesce(nullif(btrim(p.name), ''), 'Someone'), '[[:cntrl:]]', ' ', 'g'), 80)
    into v_name from public.profiles p where p.id = new.follower_id;
  perform public.enqueue_user_mail(new.following_id, 'social.new_follower',
    coalesce(v_name, 'Someone') || ' now follows you on Soundloft',
    coalesce(v_name, 'Someone') || ' now follows you on Soundloft: ' || v_link
      || E'\n\n' || 'You get this mail once per follower. Turn it off in Settings › Notifications: '
      || '{app}/settings#notifications');
  return null;
end
$$;
revoke execute on function public.followers_mail() from public, anon, authenticated;
create trigger followers_mail after insert on public.followers
  for each row execute function public.followers_mail();

-- A follower mail names the follower (their name and profile link): when that account is
-- deleted (its profile goes in the cascade), the mails about it go too, sent or not
-- (docs/privacy-rights.md: no row names a deleted user outside the anonymised ledger).
create or replace function public.followers_mail_forget() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  delete from public.moderation_mail_outbox o
   where o.kind = 'social.new_follower' and strpos(o.body, '/profile/' || old.id::text) > 0;
  return null;
end
$$;
revoke execute on function public.followers_mail_forget() from public, anon, authenticated;
create trigger followers_mail_forget after delete on public.profiles
  for each row execute function public.followers_mail_forget();
