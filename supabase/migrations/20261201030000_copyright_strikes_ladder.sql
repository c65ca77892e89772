-- Repeat infringers (issue 31; 17 U.S.C. §512(i)(1)(A); the copyright policy's "Repeat
-- infringers": "The first leads to a warning together with removal of the content, the next to a
-- temporary suspension of 7-30 days, and further violations to a permanent ban"). Rules and
-- sources: docs/trust-and-safety.md § Repeat infringers.
--
--   1. The effects of a sanction and of its lift (the row, the ban's sign-out, hidden tracks and
--      held withdrawals, the realtime notify, the audit row; the decision e-mail is the trigger on
--      account_sanctions) move into two internal functions, sanction_apply() and
--      sanction_lift_apply(). admin_sanction_user / admin_lift_sanction keep their checks (an
--      admin, not oneself) and call them; so does the ladder below. One copy of the logic.
--   2. A strike (made when a notice's tracks are removed, 20261130011000) applies the ladder at
--      once: the caller's count of active strikes, this one included, 1 → a warning, 2 → a
--      suspension of 14 days, 3 or more → a ban. The sanction carries its strike
--      (account_sanctions.copyright_strike_id; at most one standing sanction per strike, a unique
--      index). A strike lifted (the tracks restored after a counter-notice) lifts the sanction it
--      caused, audited and mailed like any lift.
--   3. Sanctions are timed by app_clock() (now() in production; the copyright flow's test clock),
--      so a suspension ends by itself when the clock passes its end, in tests too.
--   4. add_business_days: one definition (below), with its grants, replacing the two of
--      20261130010000 and 20261130020000.

-- ---------------------------------------------------------------------------------------------
-- 3. The clock of sanctions.
create or replace function public.account_restriction(p_user uuid) returns text
language sql stable
security definer
set search_path = ''
as $$
  select s.kind from public.account_sanctions s
  where s.user_id = p_user and s.lifted_at is null and s.kind in ('ban', 'suspension')
    and s.starts_at <= public.app_clock() and (s.ends_at is null or s.ends_at > public.app_clock())
  order by s.kind = 'ban' desc
  limit 1
$$;
revoke execute on function public.account_restriction(uuid) from public, anon, authenticated;

create or replace function public.suspended_until(p_user uuid) returns timestamptz
language sql stable
security definer
set search_path = ''
as $$
  select max(s.ends_at) from public.account_sanctions s
  where s.user_id = p_user and s.kind = 'suspension' and s.lifted_at is null
    and s.starts_at <= public.app_clock() and s.ends_at > public.app_clock()
$$;
revoke execute on function public.suspended_until(uuid) from public;
grant execute on function public.suspended_until(uuid) to anon, authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- 1. One copy of a sanction's effects.
alter table public.account_sanctions
  add column copyright_strike_id uuid references public.copyright_strikes (id) on delete set null;
create unique index account_sanctions_strike_idx on public.account_sanctions (copyright_strike_id)
  where copyright_strike_id is not null and lifted_at is null;

-- Internal (no grant): validates the sanction and applies it with every effect. The caller
-- decides who may (admin_sanction_user: an admin; the ladder: a strike). created_by = auth.uid()
-- (the admin; null when the deadline job removed the notice).
create or replace function public.sanction_apply(
  p_user uuid, p_kind text, p_reason text, p_days integer, p_track_ids uuid[], p_strike uuid default null
) returns public.account_sanctions
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_row public.account_sanctions;
  v_now timestamptz := public.app_clock();
begin
  if p_user is null or not exists (select 1 from auth.users u where u.id = p_user) then
    raise exception 'No such user.' using errcode = 'P0001';
  end if;
  if p_kind is null or p_kind not in ('warning', 'suspension', 'ban') then
    raise exception 'Choose a warning, a suspension or a ban.' using errcode = 'P0001';
  end if;
  if coalesce(char_length(btrim(p_reason)), 0) not between 1 and 2000 then
    raise exception 'Give the reason (up to 2000 characters).' using errcode = 'P0001';
  end if;
  if p_kind = 'suspension' and (p_days is null or p_days not between 7 and 30) then
    raise exception 'A suspension lasts 7 to 30 days.' using errcode = 'P0001';
  end if;
  if p_kind <> 'suspension' and p_days is not null then
    raise exception 'Only a suspension has a duration.' using errcode = 'P0001';
  end if;
  if p_kind <> 'warning' and coalesce(cardinality(p_track_ids), 0) > 0 then
    raise exception 'Content is removed with a warning.' using errcode = 'P0001';
  end if;
  insert into public.account_sanctions (user_id, kind, reason, starts_at, ends_at, created_by, copyright_strike_id)
  values (p_user, p_kind, btrim(p_reason), v_now,
          case when p_kind = 'suspension' then v_now + make_interval(days => p_days) end, auth.uid(),
          p_strike)
  returning * into v_row;
  if p_kind = 'warning' and coalesce(cardinality(p_track_ids), 0) > 0 then
    if exists (select 1 from unnest(p_track_ids) i
               where not exists (select 1 from public.tracks t where t.id = i and t.uploaded_by = p_user)) then
      raise exception 'Only tracks of that user can be removed.' using errcode = 'P0001';
    end if;
    update public.tracks t set taken_down_at = now(), takedown_reason = btrim(p_reason)
    where t.id = any (p_track_ids) and t.taken_down_at is null;
  elsif p_kind = 'ban' then
    -- GoTrue's permanent ban is a ban_duration of 876000h (100 years).
    update auth.users u set banned_until = now() + interval '876000 hours' where u.id = p_user;
    delete from auth.sessions s where s.user_id = p_user;
    delete from auth.refresh_tokens r where r.user_id = p_user::text;
    update public.tracks t set taken_down_at = now(), takedown_reason = 'Account banned.',
                               hidden_by_sanction = v_row.id
    where t.uploaded_by = p_user and t.taken_down_at is null;
    update public.withdrawals w set held_for_review = 'Account banned.'
    where w.user_id = p_user and w.status = 'pending' and w.held_for_review is null;
    -- Every node's realtime server listens (docs/trust-and-safety.md): it closes the sockets.
    perform pg_notify('soundloft_account_banned', p_user::text);
  end if;
  perform public.audit_admin_action('account.' || p_kind, 'account_sanctions', v_row.id::text,
    null, to_jsonb(v_row) || jsonb_build_object('track_ids', to_jsonb(coalesce(p_track_ids, '{}'))));
  return v_row;
end
$$;
revoke execute on function public.sanction_apply(uuid, text, text, integer, uuid[], uuid) from public, anon, authenticated;

-- Internal (no grant): lifts a standing sanction with its effects (a ban: sign-in, tracks and
-- withdrawals released, unless another ban stands). lifted_by = auth.uid().
create or replace function public.sanction_lift_apply(p_sanction uuid, p_reason text)
returns public.account_sanctions
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_before public.account_sanctions;
  v_row public.account_sanctions;
begin
  if coalesce(char_length(btrim(p_reason)), 0) not between 1 and 2000 then
    raise exception 'Give the reason (up to 2000 characters).' using errcode = 'P0001';
  end if;
  select * into v_before from public.account_sanctions s where s.id = p_sanction for update;
  if not found then
    raise exception 'No such sanction.' using errcode = 'P0001';
  end if;
  if v_before.lifted_at is not null then
    raise exception 'This sanction was already lifted.' using errcode = 'P0001';
  end if;
  update public.account_sanctions s
     set lifted_at = now(), lifted_by = auth.uid(), lift_reason = left(btrim(p_reason), 2000)
   where s.id = p_sanction
  returning * into v_row;
  if v_row.kind = 'ban' and public.account_restriction(v_row.user_id) is distinct from 'ban' then
    update auth.users u set banned_until = null where u.id = v_row.user_id;
    update public.tracks t set taken_down_at = null, takedown_reason = null, hidden_by_sanction = null
    where t.hidden_by_sanction = v_row.id;
    update public.withdrawals w set held_for_review = null
    where w.user_id = v_row.user_id and w.status = 'pending' and w.held_for_review = 'Account banned.';
  end if;
  perform public.audit_admin_action('account.lift_' || v_row.kind, 'account_sanctions',
    v_row.id::text, to_jsonb(v_before), to_jsonb(v_row));
  return v_row;
end
$$;
revoke execute on function public.sanction_lift_apply(uuid, text) from public, anon, authenticated;

create or replace function public.admin_sanction_user(
  p_user uuid, p_kind text, p_reason text, p_days integer default null, p_track_ids uuid[] default '{}'
) returns public.account_sanctions
language plpgsql
security definer
set search_path = ''
as $$
begin
  if not public.is_admin() then
    raise exception 'Only admins can sanction accounts.' using errcode = '42501';
  end if;
  if p_user is not null and p_user = auth.uid() then
    raise exception 'Admins cannot sanction themselves.' using errcode = 'P0001';
  end if;
  return public.sanction_apply(p_user, p_kind, p_reason, p_days, p_track_ids);
end
$$;

create or replace function public.admin_lift_sanction(p_sanction uuid, p_reason text)
returns public.account_sanctions
language plpgsql
security definer
set search_path = ''
as $$
begin
  if not public.is_admin() then
    raise exception 'Only admins can lift sanctions.' using errcode = '42501';
  end if;
  return public.sanction_lift_apply(p_sanction, p_reason);
end
$$;

-- ---------------------------------------------------------------------------------------------
-- 2. The ladder.
create or replace function public.copyright_strike_ladder() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_count integer;
  v_kind text;
  v_sanction uuid;
  v_was_lifted boolean := false;
begin
  if tg_op = 'UPDATE' then
    v_was_lifted := old.lifted_at is not null;
  end if;
  if new.lifted_at is null and (tg_op = 'INSERT' or v_was_lifted) then
    -- One uploader's strikes are counted one transaction at a time (two nodes removing two of
    -- their notices at once must make a warning and a suspension, not two warnings).
    perform pg_advisory_xact_lock(hashtext('copyright_strike_ladder:' || new.user_id::text));
    if exists (select 1 from public.account_sanctions s
               where s.copyright_strike_id = new.id and s.lifted_at is null) then
      return null;
    end if;
    select count(*)::integer into v_count from public.copyright_strikes s
    where s.user_id = new.user_id and s.lifted_at is null;
    if public.account_restriction(new.user_id) = 'ban' then
      -- Already banned: nothing further to apply; the strike is recorded and audited.
      perform public.audit_admin_action('copyright.strike', 'copyright_strikes', new.id::text, null,
        jsonb_build_object('user_id', new.user_id, 'notice_id', new.notice_id, 'strikes', v_count,
                           'sanction', null, 'why', 'The account is already banned.'));
      return null;
    end if;
    v_kind := case when v_count <= 1 then 'warning' when v_count = 2 then 'suspension' else 'ban' end;
    v_sanction := (public.sanction_apply(new.user_id, v_kind,
      format('Copyright strike %s: the track(s) named in copyright notice %s were removed. '
             'Our repeat-infringer policy: the first valid notice is a warning, the second a '
             'suspension of 14 days, further ones a permanent ban.', v_count, new.notice_id),
      case when v_kind = 'suspension' then 14 end, '{}', new.id)).id;
    perform public.audit_admin_action('copyright.strike', 'copyright_strikes', new.id::text, null,
      jsonb_build_object('user_id', new.user_id, 'notice_id', new.notice_id, 'strikes', v_count,
                         'sanction', v_kind, 'sanction_id', v_sanction));
  elsif new.lifted_at is not null and tg_op = 'UPDATE' and not v_was_lifted then
    for v_sanction in
      select s.id from public.account_sanctions s
      where s.copyright_strike_id = new.id and s.lifted_at is null
    loop
      perform public.sanction_lift_apply(v_sanction,
        'The copyright strike that caused it was lifted: ' || coalesce(new.lift_reason, 'the track(s) were restored.'));
    end loop;
  end if;
  return null;
end
$$;
revoke execute on function public.copyright_strike_ladder() from public, anon, authenticated;
create trigger copyright_strikes_ladder after insert or update of lifted_at on public.copyright_strikes
  for each row execute function public.copyright_strike_ladder();

-- ---------------------------------------------------------------------------------------------
-- 4. add_business_days, the one definition in effect (it was created by 20261130010000 and
-- replaced, bounded, by 20261130020000): ts plus n business days (Monday to Friday, UTC dates,
-- not in business_holidays), the same UTC time of day; n from 0 to 366, from a finite time
-- (callable by anon: an unbounded n or 'infinity' kept a connection looping).
create or replace function public.add_business_days(p_from timestamptz, p_days integer)
returns timestamptz
language plpgsql stable
security definer
set search_path = ''
as $$
declare
  v_day date;
  v_left integer := p_days;
begin
  if p_from is null or p_days is null then
    return null;
  end if;
  if p_days not between 0 and 366 then
    raise exception 'add_business_days counts 0 to 366 days forward.' using errcode = '22023';
  end if;
  if not isfinite(p_from) then
    raise exception 'add_business_days needs a finite date.' using errcode = '22023';
  end if;
  v_day := (p_from at time zone 'UTC')::date;
  while v_left > 0 loop
    v_day := v_day + 1;
    if extract(isodow from v_day) < 6
       and not exists (select 1 from public.business_holidays h where h.day = v_day) then
      v_left := v_left - 1;
    end if;
  end loop;
  return ((v_day + (p_from at time zone 'UTC')::time) at time zone 'UTC');
end
$$;
revoke execute on function public.add_business_days(timestamptz, integer) from public;
grant execute on function public.add_business_days(timestamptz, integer) to anon, authenticated, service_role;
