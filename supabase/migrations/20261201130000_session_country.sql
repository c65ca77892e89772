-- The rough place of a signed-in device (docs/account.md, "Signed-in devices"; issue 32): the
-- country of the address the auth server saw at sign-in or at the last refresh, as an ISO 3166-1
-- alpha-2 code beside the session's address (which GoTrue already keeps, and the privacy policy
-- names). The embedded auth server (server/auth/sessions.ts, server/auth/place.ts) writes it from an
-- offline database; nothing finer (no region, city or coordinates) is stored. It goes with the
-- session: signing out, ending a device and deleting the account delete the row.
--
-- On hosted Supabase auth.sessions belongs to GoTrue's role and its GoTrue writes no country: the
-- column is not added there and my_sessions() answers null ("Unknown place"), so it reads the
-- column through to_jsonb, which works with or without it.
do $$
begin
  alter table auth.sessions add column if not exists country text
    constraint sessions_country_code check (country ~ '^[A-Z]{2}$');
exception when insufficient_privilege then
  raise notice 'auth.sessions is not ours to change: device places stay unknown';
end
$$;

-- The caller's devices, as 20261130050000 and 20261201010000 (only one's own sessions, none before
-- the second factor, the address cut to /24 or /48), now with the country. The result type
-- changes, so the function is created again (and granted again).
drop function public.my_sessions();
create function public.my_sessions()
returns table (
  id uuid,
  user_agent text,
  network text,
  country text,
  created_at timestamptz,
  last_active_at timestamptz,
  two_factor boolean,
  current boolean
)
language sql stable security definer
set search_path = ''
as $$
  select s.id, s.user_agent,
    case when s.ip is null then null
         else host(network(set_masklen(s.ip, case when family(s.ip) = 4 then 24 else 48 end)))
    end,
    to_jsonb(s) ->> 'country',
    s.created_at,
    greatest(s.updated_at, s.created_at),
    s.aal = 'aal2',
    s.id::text = (auth.jwt() ->> 'session_id')
  from auth.sessions s
  where s.user_id = auth.uid() and (select public.is_active_account())
    and (s.not_after is null or s.not_after > now())
  order by s.id::text = (auth.jwt() ->> 'session_id') desc, greatest(s.updated_at, s.created_at) desc
$$;
revoke execute on function public.my_sessions() from public, anon;
grant execute on function public.my_sessions() to authenticated;
