-- Money: the earnings ledger, counted plays, withdrawals. profiles.balance is always the sum of
-- the user's ledger entries; both change together, only inside security definer functions.

create table public.withdrawals (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  amount numeric(12, 2) not null check (amount > 0),
  method text not null check (method in ('paypal', 'bank')),
  details text not null check (btrim(details) <> '' and char_length(details) <= 2000),
  status text not null default 'pending' check (status in ('pending', 'completed', 'rejected')),
  processed_at timestamptz,
  processed_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index withdrawals_user_created_idx on public.withdrawals (user_id, created_at desc);
create index withdrawals_pending_idx on public.withdrawals (created_at) where status = 'pending';
create trigger handle_timestamps before insert or update on public.withdrawals
  for each row execute function public.handle_timestamps();

alter table public.withdrawals enable row level security;
-- Withdrawals are created and processed only through functions (they move money).
revoke all on public.withdrawals from anon, authenticated;
grant select on public.withdrawals to authenticated;
create policy "withdrawals: the owner or an admin reads" on public.withdrawals
  for select to authenticated using (user_id = (select auth.uid()) or (select public.is_admin()));

-- ---------------------------------------------------------------------------------------------
create table public.earnings_ledger (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id) on delete cascade,
  amount numeric(12, 4) not null,
  kind text not null check (kind in ('play', 'withdrawal', 'withdrawal_reversal')),
  track_id uuid references public.tracks (id) on delete set null,
  listener_id uuid references public.profiles (id) on delete set null,
  withdrawal_id uuid references public.withdrawals (id) on delete set null,
  created_at timestamptz not null default now(),
  constraint earnings_ledger_sign check (
    (kind = 'play' and amount > 0)
    or (kind = 'withdrawal' and amount < 0)
    or (kind = 'withdrawal_reversal' and amount > 0)
  )
);
create index earnings_ledger_user_created_idx on public.earnings_ledger (user_id, created_at desc);
create index earnings_ledger_track_id_idx on public.earnings_ledger (track_id);
create index earnings_ledger_listener_id_idx on public.earnings_ledger (listener_id);
create index earnings_ledger_withdrawal_id_idx on public.earnings_ledger (withdrawal_id);

alter table public.earnings_ledger enable row level security;
revoke all on public.earnings_ledger from anon, authenticated;
grant select on public.earnings_ledger to authenticated;
create policy "earnings_ledger: the owner or an admin reads" on public.earnings_ledger
  for select to authenticated using (user_id = (select auth.uid()) or (select public.is_admin()));

-- The one writer of the ledger: one entry, and the balance moves by the same amount. The profile
-- row lock orders concurrent entries; the balance check (>= 0) refuses an overdraft.
create or replace function public.post_ledger_entry(
  p_user_id uuid, p_amount numeric, p_kind text,
  p_track_id uuid default null, p_listener_id uuid default null, p_withdrawal_id uuid default null
) returns numeric
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_balance numeric;
begin
  select p.balance into v_balance from public.profiles p where p.id = p_user_id for update;
  if not found then
    raise exception 'Profile not found.' using errcode = 'P0002';
  end if;
  insert into public.earnings_ledger (user_id, amount, kind, track_id, listener_id, withdrawal_id)
  values (p_user_id, p_amount, p_kind, p_track_id, p_listener_id, p_withdrawal_id);
  update public.profiles set balance = balance + p_amount where id = p_user_id
  returning balance into v_balance;
  return v_balance;
end
$$;
revoke execute on function public.post_ledger_entry(uuid, numeric, text, uuid, uuid, uuid)
  from public, anon, authenticated;

-- ---------------------------------------------------------------------------------------------
-- One row per listen (listener, track, session). counted = it raised plays and paid the uploader.
create table public.play_events (
  id uuid primary key default gen_random_uuid(),
  listener_id uuid not null references public.profiles (id) on delete cascade,
  track_id uuid not null references public.tracks (id) on delete cascade,
  session_id text not null check (char_length(session_id) between 1 and 200),
  played_at timestamptz not null default now(),
  counted boolean not null default false,
  created_at timestamptz not null default now(),
  constraint play_events_once_per_session unique (listener_id, track_id, session_id)
);
create index play_events_counted_idx on public.play_events (listener_id, track_id, played_at) where counted;
create index play_events_track_id_idx on public.play_events (track_id);

alter table public.play_events enable row level security;
revoke all on public.play_events from anon, authenticated;
grant select on public.play_events to authenticated;
create policy "play_events: the listener or an admin reads" on public.play_events
  for select to authenticated using (listener_id = (select auth.uid()) or (select public.is_admin()));

-- DECISIONS.md's play rule. Called by the player after 30 s of listening (or the whole track if
-- shorter); offline plays are sent on reconnect with played_at. A listen is recorded once per
-- listener, track and session (session_id, else the JWT's session_id claim, else the UTC day),
-- never for the uploader, and written to listening_history. It is counted (plays + 1, uploader
-- credited play_rate_eur()) for at most max_counted_plays_per_day() listens of one listener and
-- track per UTC day. Returns whether this call counted a play.
create or replace function public.increment_track_plays(
  track_id uuid, session_id text default null, played_at timestamptz default null
) returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_listener uuid := auth.uid();
  v_uploader uuid;
  v_at timestamptz := least(now(), greatest(coalesce(played_at, now()), now() - interval '7 days'));
  v_day_start timestamptz;
  v_session text;
  v_event uuid;
  v_counted_today integer;
begin
  if v_listener is null then
    raise exception 'Auth session missing!' using errcode = '42501';
  end if;
  -- The track row lock serialises concurrent calls for this track: the count below is exact.
  select t.uploaded_by into v_uploader
  from public.tracks t where t.id = increment_track_plays.track_id
  for update;
  if not found then
    raise exception 'Track not found' using errcode = 'P0002';
  end if;
  if v_uploader = v_listener then
    return false;
  end if;

  v_day_start := date_trunc('day', v_at at time zone 'utc') at time zone 'utc';
  v_session := left(coalesce(
    nullif(btrim(increment_track_plays.session_id), ''),
    nullif(auth.jwt() ->> 'session_id', ''),
    'day:' || to_char(v_day_start at time zone 'utc', 'YYYY-MM-DD')
  ), 200);

  insert into public.play_events (listener_id, track_id, session_id, played_at)
  values (v_listener, increment_track_plays.track_id, v_session, v_at)
  on conflict on constraint play_events_once_per_session do nothing
  returning id into v_event;
  if v_event is null then
    return false; -- already recorded in this session
  end if;

  insert into public.listening_history (user_id, track_id, listened_at)
  values (v_listener, increment_track_plays.track_id, v_at);

  select count(*) into v_counted_today
  from public.play_events e
  where e.listener_id = v_listener and e.track_id = increment_track_plays.track_id and e.counted
    and e.played_at >= v_day_start and e.played_at < v_day_start + interval '1 day';
  if v_counted_today >= public.max_counted_plays_per_day() then
    return false;
  end if;

  update public.play_events set counted = true where id = v_event;
  update public.tracks t set plays = t.plays + 1 where t.id = increment_track_plays.track_id;
  perform public.post_ledger_entry(v_uploader, public.play_rate_eur(), 'play',
                                   increment_track_plays.track_id, v_listener, null);
  return true;
end
$$;
revoke execute on function public.increment_track_plays(uuid, text, timestamptz) from public, anon;
grant execute on function public.increment_track_plays(uuid, text, timestamptz) to authenticated, service_role;
