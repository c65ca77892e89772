-- Two branches of one session: 20261201021000 (notification preferences) wrote the follower
-- mail's once-only rule and its forgetting against moderation_mail_outbox, which 20261201040000
-- (one outbox) moved into mail_outbox (its `kind` is mail_outbox's `template`) and dropped.
-- The same rules, on the one outbox.
create index mail_outbox_to_user_idx on public.mail_outbox (to_user, template);

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
  if exists (select 1 from public.mail_outbox o
              where o.to_user = new.following_id and o.template = 'social.new_follower'
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

create or replace function public.followers_mail_forget() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  delete from public.mail_outbox o
   where o.template = 'social.new_follower' and strpos(o.body, '/profile/' || old.id::text) > 0;
  return null;
end
$$;
revoke execute on function public.followers_mail_forget() from public, anon, authenticated;
