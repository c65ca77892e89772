-- Plans (the values of src/lib/plans.ts; a test checks they are equal) and profiles.

create table public.plans (
  id text primary key check (id in ('free', 'basic', 'premium')),
  name text not null check (btrim(name) <> ''),
  price_eur numeric(10, 2) not null check (price_eur >= 0),
  monthly_upload_limit integer check (monthly_upload_limit >= 0), -- null = unlimited
  description text not null,
  badge text,
  features text[] not null default '{}',
  audio_quality text not null,
  audio_kbps integer check (audio_kbps > 0), -- null = lossless original
  audio_lossless boolean not null,
  offline_downloads boolean not null,
  ads boolean not null,
  sort_order integer not null
);
alter table public.plans enable row level security;
revoke all on public.plans from anon, authenticated;
grant select on public.plans to anon, authenticated;
create policy "plans: readable by everyone" on public.plans for select to anon, authenticated using (true);

insert into public.plans
  (id, name, price_eur, monthly_upload_limit, description, badge, features,
   audio_quality, audio_kbps, audio_lossless, offline_downloads, ads, sort_order)
values
  ('free', 'Free', 0.00, 50,
   'Everything you need to start listening and sharing your music.', null,
   array['Unlimited streaming of the whole catalogue', 'Unlimited playlists and likes',
         'Standard audio (128 kbps)', '50 track uploads per month', 'Synced lyrics',
         'Occasional Soundloft promotions'],
   'Standard (128 kbps)', 128, false, false, true, 1),
  ('basic', 'Basic', 4.99, 100,
   'Ad-free listening in high quality, with room to grow as an artist.', 'Popular',
   array['Everything in Free', 'No ads', 'High quality audio (320 kbps)',
         '100 track uploads per month'],
   'High (320 kbps)', 320, false, false, false, 2),
  ('premium', 'Premium', 9.99, null,
   'Lossless sound, offline downloads and unlimited uploads.', 'Best value',
   array['Everything in Basic', 'Lossless audio (the original upload when it is lossless)',
         'Offline downloads on your devices', 'Unlimited track uploads'],
   'Lossless (original upload)', null, true, true, false, 3);

-- ---------------------------------------------------------------------------------------------
-- profiles: one per auth user. Public columns are readable by everyone; email, balance and
-- stripe_customer_id are not granted for reading (see public.profiles_private below).
create table public.profiles (
  id uuid primary key references auth.users (id) on delete cascade,
  name text not null check (btrim(name) <> '' and char_length(name) <= 100),
  email text,
  avatar_url text check (char_length(avatar_url) <= 2048),
  bio text check (char_length(bio) <= 2000),
  social_links jsonb not null default '{}'::jsonb check (
    jsonb_typeof(social_links) = 'object'
    and social_links - array['twitter', 'instagram', 'spotify'] = '{}'::jsonb
    and not jsonb_path_exists(social_links, '$.* ? (@.type() != "string" && @.type() != "null")')
  ),
  featured_track uuid,
  featured_playlist uuid,
  subscription_plan text not null default 'free' references public.plans (id),
  stripe_customer_id text unique,
  monthly_uploads integer not null default 0 check (monthly_uploads >= 0),
  -- The month monthly_uploads counts (first day, UTC); an earlier month means 0 uploads so far.
  monthly_uploads_month date not null default date_trunc('month', now() at time zone 'utc')::date,
  balance numeric(14, 4) not null default 0 check (balance >= 0),
  followers integer not null default 0 check (followers >= 0),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index profiles_name_idx on public.profiles (name);
create index profiles_created_at_idx on public.profiles (created_at desc);

create trigger handle_timestamps before insert or update on public.profiles
  for each row execute function public.handle_timestamps();

alter table public.profiles enable row level security;

-- Column privileges: the privileged columns (subscription_plan, balance, stripe_customer_id,
-- monthly_uploads, monthly_uploads_month, followers, email) are written only by security definer
-- functions and triggers. The insert and update column lists are the same so that a PostgREST
-- upsert (insert ... on conflict do update) of these columns works.
revoke all on public.profiles from anon, authenticated;
grant select (id, name, avatar_url, bio, social_links, featured_track, featured_playlist,
              subscription_plan, monthly_uploads, monthly_uploads_month, followers,
              created_at, updated_at)
  on public.profiles to anon, authenticated;
grant insert (id, name, avatar_url, bio, social_links, featured_track, featured_playlist,
              created_at, updated_at)
  on public.profiles to authenticated;
grant update (id, name, avatar_url, bio, social_links, featured_track, featured_playlist,
              created_at, updated_at)
  on public.profiles to authenticated;
create trigger keep_keys before update of id on public.profiles
  for each row execute function public.keep_keys('id');

create policy "profiles: readable by everyone" on public.profiles
  for select to anon, authenticated using (true);
create policy "profiles: a user creates only their own" on public.profiles
  for insert to authenticated with check (id = (select auth.uid()));
create policy "profiles: the owner or an admin updates" on public.profiles
  for update to authenticated
  using (id = (select auth.uid()) or (select public.is_admin()))
  with check (id = (select auth.uid()) or (select public.is_admin()));
-- No delete policy: a profile goes with its auth user (on delete cascade).

-- The private part of a profile, for its owner and for admins only. A view owned by the
-- migration role (security definer semantics): the filter below is its whole access rule.
create view public.profiles_private as
  select p.id, p.email, p.balance, p.stripe_customer_id, p.subscription_plan,
         p.monthly_uploads, p.monthly_uploads_month
  from public.profiles p
  where p.id = (select auth.uid()) or (select public.is_admin());
revoke all on public.profiles_private from anon, authenticated;
grant select on public.profiles_private to authenticated;

-- E-mail is the auth user's, never the client's.
create or replace function public.profiles_pin_email() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  new.email := (select u.email from auth.users u where u.id = new.id);
  return new;
end
$$;
create trigger profiles_pin_email before insert or update of email on public.profiles
  for each row execute function public.profiles_pin_email();

-- A profile for every new auth user: free plan, name from the sign-up metadata or the e-mail.
create or replace function public.handle_new_user() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  display_name text := coalesce(
    nullif(btrim(new.raw_user_meta_data ->> 'name'), ''),
    nullif(btrim(new.raw_user_meta_data ->> 'full_name'), ''),
    nullif(split_part(coalesce(new.email, ''), '@', 1), ''),
    'Music Lover'
  );
begin
  insert into public.profiles (id, name, email, avatar_url)
  values (new.id, left(display_name, 100), new.email,
          nullif(btrim(coalesce(new.raw_user_meta_data ->> 'avatar_url', '')), ''))
  on conflict (id) do nothing;
  return new;
end
$$;
create trigger on_auth_user_created after insert on auth.users
  for each row execute function public.handle_new_user();

create or replace function public.handle_user_email_change() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.profiles set email = new.email where id = new.id;
  return null;
end
$$;
create trigger on_auth_user_email_changed after update of email on auth.users
  for each row execute function public.handle_user_email_change();
