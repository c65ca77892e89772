-- Your data and leaving (issue 32, docs/privacy-rights.md): the data export job and the account
-- deletion with its 14-day grace period. Both are job rows worked by server/account/ with the
-- same leases as the processing queue (server/processing/lease.ts: locked_by / locked_at, a
-- killed worker's job taken over, every write fenced by the claim's token), so any number of
-- nodes may run them.
--
-- - One export per UTC day per user: unique (user_id, requested_on), enforced here.
-- - Only the owner requests an export (request_data_export, auth.uid()); only the server
--   schedules a deletion (schedule_account_deletion, service_role: the delete-account edge
--   function after checking the password or AAL2); the owner cancels it during the grace period.
-- - The earnings ledger and withdrawals outlive the account, anonymised: user_id null,
--   former_account a fresh random id (groups one former account's rows for accounting, links to
--   no person), payout details erased. Kept 10 years, then deleted by the same job runner.

create or replace function public.account_deletion_grace_days() returns integer
language sql immutable parallel safe
set search_path = ''
as $$ select 14 $$;

create or replace function public.data_export_link_days() returns integer
language sql immutable parallel safe
set search_path = ''
as $$ select 7 $$;

-- ---------------------------------------------------------------------------------------------
create table public.data_exports (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  requested_on date not null default (now() at time zone 'utc')::date,
  state text not null default 'queued'
    check (state in ('queued', 'running', 'ready', 'failed', 'expired')),
  stage text check (char_length(stage) <= 40),
  progress smallint not null default 0 check (progress between 0 and 100),
  object_name text check (char_length(object_name) <= 300),
  size_bytes bigint,
  expires_at timestamptz,
  last_error text check (char_length(last_error) <= 2000),
  attempts integer not null default 0 check (attempts >= 0),
  run_after timestamptz not null default now(),
  locked_by text,
  locked_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint data_exports_one_per_day unique (user_id, requested_on)
);
create index data_exports_queued_idx on public.data_exports (run_after) where state in ('queued', 'running');
create index data_exports_ready_idx on public.data_exports (expires_at) where state = 'ready';

alter table public.data_exports enable row level security;
revoke all on public.data_exports from anon, authenticated;
grant select on public.data_exports to authenticated;
create policy "data_exports: the owner or an admin reads" on public.data_exports
  for select to authenticated
  using (user_id = (select auth.uid()) or (select public.is_admin()));
create policy "data_exports: not for banned accounts" on public.data_exports
  as restrictive for all to authenticated
  using ((select public.is_active_account())) with check ((select public.is_active_account()));

-- ---------------------------------------------------------------------------------------------
-- One row per account that asked to be deleted. run_after is when the deletion runs (the end of
-- the grace period); state 'queued' until then, 'running' while a worker holds it. The row goes
-- with the account (cascade), in the deletion's last transaction.
create table public.account_deletions (
  user_id uuid primary key references auth.users (id) on delete cascade,
  requested_at timestamptz not null default now(),
  run_after timestamptz not null,
  state text not null default 'queued' check (state in ('queued', 'running')),
  stage text check (char_length(stage) <= 40),
  last_error text check (char_length(last_error) <= 2000),
  attempts integer not null default 0 check (attempts >= 0),
  locked_by text,
  locked_at timestamptz,
  updated_at timestamptz not null default now()
);
create index account_deletions_due_idx on public.account_deletions (run_after);

alter table public.account_deletions enable row level security;
revoke all on public.account_deletions from anon, authenticated;
grant select on public.account_deletions to authenticated;
create policy "account_deletions: the owner or an admin reads" on public.account_deletions
  for select to authenticated
  using (user_id = (select auth.uid()) or (select public.is_admin()));
create policy "account_deletions: not for banned accounts" on public.account_deletions
  as restrictive for all to authenticated
  using ((select public.is_active_account())) with check ((select public.is_active_account()));

-- ---------------------------------------------------------------------------------------------
-- The money records outlive the account, anonymised (see the top of this file).
alter table public.earnings_ledger alter column user_id drop not null;
alter table public.earnings_ledger add column former_account uuid;
alter table public.earnings_ledger add column anonymised_at timestamptz;
alter table public.earnings_ledger drop constraint earnings_ledger_user_id_fkey;
alter table public.earnings_ledger add constraint earnings_ledger_user_id_fkey
  foreign key (user_id) references public.profiles (id) on delete set null;
alter table public.withdrawals alter column user_id drop not null;
alter table public.withdrawals add column former_account uuid;
alter table public.withdrawals add column anonymised_at timestamptz;
alter table public.withdrawals drop constraint withdrawals_user_id_fkey;
alter table public.withdrawals add constraint withdrawals_user_id_fkey
  foreign key (user_id) references public.profiles (id) on delete set null;
create index earnings_ledger_anonymised_idx on public.earnings_ledger (anonymised_at) where anonymised_at is not null;
create index withdrawals_anonymised_idx on public.withdrawals (anonymised_at) where anonymised_at is not null;

-- How long anonymised accounting records are kept (docs/privacy-rights.md).
create or replace function public.accounting_retention_years() returns integer
language sql immutable parallel safe
set search_path = ''
as $$ select 10 $$;

-- ---------------------------------------------------------------------------------------------
-- The owner asks for an export: one per UTC day.
create or replace function public.request_data_export() returns public.data_exports
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_user uuid := auth.uid();
  v_row public.data_exports;
begin
  perform public.refuse_sanctioned_caller('listen');
  if v_user is null then
    raise exception 'Not authenticated' using errcode = '42501';
  end if;
  insert into public.data_exports (user_id) values (v_user)
  on conflict on constraint data_exports_one_per_day do nothing
  returning * into v_row;
  if v_row.id is null then
    raise exception 'You can request one export per day. Try again tomorrow.' using errcode = 'P0001';
  end if;
  return v_row;
end
$$;
revoke execute on function public.request_data_export() from public, anon;
grant execute on function public.request_data_export() to authenticated;

-- The server (delete-account, after the password or AAL2 check) schedules a deletion.
create or replace function public.schedule_account_deletion(p_user uuid) returns public.account_deletions
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_balance numeric;
  v_row public.account_deletions;
begin
  if p_user is null or not exists (select 1 from auth.users u where u.id = p_user) then
    raise exception 'No such user.' using errcode = 'P0001';
  end if;
  select p.balance into v_balance from public.profiles p where p.id = p_user for update;
  if coalesce(v_balance, 0) >= public.minimum_withdrawal_eur() then
    raise exception 'Withdraw your balance of % EUR before you delete your account.',
      to_char(v_balance, 'FM999999990.00') using errcode = 'P0001';
  end if;
  if exists (select 1 from public.withdrawals w where w.user_id = p_user and w.status = 'pending') then
    raise exception 'Wait until your pending withdrawal is processed before you delete your account.'
      using errcode = 'P0001';
  end if;
  insert into public.account_deletions (user_id, run_after)
  values (p_user, now() + make_interval(days => public.account_deletion_grace_days()))
  on conflict (user_id) do nothing
  returning * into v_row;
  if v_row.user_id is null then
    select * into v_row from public.account_deletions d where d.user_id = p_user;
  end if;
  return v_row;
end
$$;
revoke execute on function public.schedule_account_deletion(uuid) from public, anon, authenticated;
grant execute on function public.schedule_account_deletion(uuid) to service_role;

-- The owner keeps their account: only during the grace period (not once the deletion runs).
create or replace function public.cancel_account_deletion() returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_user uuid := auth.uid();
begin
  perform public.refuse_sanctioned_caller('listen');
  if v_user is null then
    raise exception 'Not authenticated' using errcode = '42501';
  end if;
  delete from public.account_deletions d where d.user_id = v_user and d.state = 'queued';
  if not found then
    raise exception 'No account deletion is scheduled.' using errcode = 'P0001';
  end if;
  return true;
end
$$;
revoke execute on function public.cancel_account_deletion() from public, anon;
grant execute on function public.cancel_account_deletion() to authenticated;

-- The export archives: private, written and signed only by the server.
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('exports', 'exports', false, null, array['application/zip'])
on conflict (id) do nothing;
