-- Payments (docs/payments.md): Stripe subscriptions mirrored from verified webhooks, the events
-- already processed, and the one function that changes profiles.subscription_plan.
--
-- The Stripe customer of a user is profiles.stripe_customer_id (the spec's column; unique, only
-- readable by its owner and admins through public.profiles_private, never writable by users).

create table public.subscriptions (
  id text primary key check (id ~ '^sub_[A-Za-z0-9_]+$'), -- Stripe's subscription id
  user_id uuid not null references public.profiles (id) on delete cascade,
  customer_id text not null,
  plan_id text not null references public.plans (id),
  price_id text not null,
  -- Stripe's statuses: incomplete, incomplete_expired, trialing, active, past_due, canceled,
  -- unpaid, paused.
  status text not null,
  cancel_at_period_end boolean not null default false,
  current_period_start timestamptz,
  current_period_end timestamptz,
  canceled_at timestamptz,
  ended_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index subscriptions_user_idx on public.subscriptions (user_id);
create trigger handle_timestamps before insert or update on public.subscriptions
  for each row execute function public.handle_timestamps();

alter table public.subscriptions enable row level security;
revoke all on public.subscriptions from anon, authenticated;
grant select on public.subscriptions to authenticated;
create policy "subscriptions: the owner or an admin reads" on public.subscriptions
  for select to authenticated
  using (user_id = (select auth.uid()) or (select public.is_admin()));
-- No insert, update or delete for anyone but the webhook's function below.

-- Every Stripe event that reached the webhook with a valid signature, once.
create table public.stripe_events (
  id text primary key check (id ~ '^evt_[A-Za-z0-9_]+$'),
  type text not null,
  stripe_created_at timestamptz not null,
  received_at timestamptz not null default now(),
  -- applied | ignored | unknown_customer | customer_mismatch | stale
  outcome text not null,
  subscription_id text,
  user_id uuid references public.profiles (id) on delete set null
);
alter table public.stripe_events enable row level security;
revoke all on public.stripe_events from anon, authenticated;
grant select on public.stripe_events to authenticated;
create policy "stripe_events: admins read" on public.stripe_events
  for select to authenticated using ((select public.is_admin()));

-- The plan a user has: the best plan among their subscriptions that still give access
-- (active, trialing, past_due while Stripe retries the payment), else free.
create or replace function public.plan_from_subscriptions(p_user uuid) returns text
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(
    (select s.plan_id
       from public.subscriptions s
       join public.plans pl on pl.id = s.plan_id
      where s.user_id = p_user and s.status in ('active', 'trialing', 'past_due')
      order by pl.sort_order desc
      limit 1),
    'free')
$$;
revoke all on function public.plan_from_subscriptions(uuid) from public, anon, authenticated;

-- Links a user to their Stripe customer once (create-checkout-session); returns the stored id
-- (a concurrent checkout that created another customer gets the first one back).
create or replace function public.link_stripe_customer(p_user uuid, p_customer text) returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_customer text;
begin
  if p_customer !~ '^cus_[A-Za-z0-9_]+$' then
    raise exception 'invalid Stripe customer id' using errcode = '22023';
  end if;
  update public.profiles set stripe_customer_id = p_customer
   where id = p_user and stripe_customer_id is null;
  select stripe_customer_id into v_customer from public.profiles where id = p_user;
  if v_customer is null then
    raise exception 'no profile for user %', p_user using errcode = 'P0002';
  end if;
  return v_customer;
end
$$;
revoke all on function public.link_stripe_customer(uuid, text) from public, anon, authenticated;
grant execute on function public.link_stripe_customer(uuid, text) to service_role;

-- The ONLY way profiles.subscription_plan changes. Called by the stripe-webhook function (service
-- role) after stripe.webhooks.constructEvent verified the event, with the subscription as Stripe
-- reports it NOW (the function retrieves it, so an old event carries current state):
--   p_subscription = {id, customer, status, plan_id, price_id, cancel_at_period_end,
--                     current_period_start, current_period_end, canceled_at, ended_at}
--   (times in Unix seconds) or null for an event that concerns no subscription.
--   p_claimed_user: the user the event names (a checkout session's client_reference_id).
-- Idempotent per event id: a replay returns 'duplicate' and changes nothing. The user is the
-- owner of the subscription's customer, never the event's say; a canceled subscription never
-- comes back (Stripe's canceled is final), so a late 'updated' cannot undo a 'deleted'.
create or replace function public.apply_stripe_event(
  p_event_id text,
  p_event_type text,
  p_event_created bigint,
  p_subscription jsonb,
  p_claimed_user uuid default null
) returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_sub_id text := p_subscription ->> 'id';
  v_user uuid;
  v_existing public.subscriptions;
  v_outcome text := 'applied';
  v_plan text;
begin
  insert into public.stripe_events (id, type, stripe_created_at, outcome, subscription_id)
  values (p_event_id, p_event_type, to_timestamp(p_event_created), 'applied', v_sub_id)
  on conflict (id) do nothing;
  if not found then
    return 'duplicate';
  end if;

  if p_subscription is null then
    update public.stripe_events set outcome = 'ignored' where id = p_event_id;
    return 'ignored';
  end if;

  select p.id into v_user from public.profiles p
   where p.stripe_customer_id = p_subscription ->> 'customer'
   for update; -- one event per user at a time
  if v_user is null then
    v_outcome := 'unknown_customer';
  elsif p_claimed_user is not null and p_claimed_user <> v_user then
    v_outcome := 'customer_mismatch';
  elsif not exists (select 1 from public.plans where id = p_subscription ->> 'plan_id') then
    v_outcome := 'ignored';
  end if;
  if v_outcome <> 'applied' then
    update public.stripe_events set outcome = v_outcome, user_id = v_user where id = p_event_id;
    return v_outcome;
  end if;

  select * into v_existing from public.subscriptions where id = v_sub_id for update;
  if found and v_existing.user_id <> v_user then
    v_outcome := 'customer_mismatch';
  elsif found and v_existing.status = 'canceled' and p_subscription ->> 'status' <> 'canceled' then
    v_outcome := 'stale';
  end if;
  if v_outcome <> 'applied' then
    update public.stripe_events set outcome = v_outcome, user_id = v_user where id = p_event_id;
    return v_outcome;
  end if;

  insert into public.subscriptions as s
    (id, user_id, customer_id, plan_id, price_id, status, cancel_at_period_end,
     current_period_start, current_period_end, canceled_at, ended_at)
  values (
    v_sub_id, v_user, p_subscription ->> 'customer', p_subscription ->> 'plan_id',
    p_subscription ->> 'price_id', p_subscription ->> 'status',
    coalesce((p_subscription ->> 'cancel_at_period_end')::boolean, false),
    to_timestamp((p_subscription ->> 'current_period_start')::bigint),
    to_timestamp((p_subscription ->> 'current_period_end')::bigint),
    to_timestamp((p_subscription ->> 'canceled_at')::bigint),
    to_timestamp((p_subscription ->> 'ended_at')::bigint))
  on conflict (id) do update set
    plan_id = excluded.plan_id,
    price_id = excluded.price_id,
    status = excluded.status,
    cancel_at_period_end = excluded.cancel_at_period_end,
    current_period_start = excluded.current_period_start,
    current_period_end = excluded.current_period_end,
    canceled_at = excluded.canceled_at,
    ended_at = excluded.ended_at;

  v_plan := public.plan_from_subscriptions(v_user);
  update public.profiles set subscription_plan = v_plan
   where id = v_user and subscription_plan is distinct from v_plan;
  update public.stripe_events set user_id = v_user where id = p_event_id;
  return v_outcome;
end
$$;
revoke all on function public.apply_stripe_event(text, text, bigint, jsonb, uuid)
  from public, anon, authenticated;
grant execute on function public.apply_stripe_event(text, text, bigint, jsonb, uuid) to service_role;

-- Offline downloads are a Premium promise (plans.offline_downloads). The offline issue asks this
-- one function (its policies and functions call it); nothing else decides it.
create or replace function public.plan_allows_offline(p_user uuid) returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(
    (select pl.offline_downloads
       from public.profiles p
       join public.plans pl on pl.id = p.subscription_plan
      where p.id = p_user),
    false)
$$;
revoke all on function public.plan_allows_offline(uuid) from public;
grant execute on function public.plan_allows_offline(uuid) to anon, authenticated, service_role;
