-- Two branches of one session redefined account_restriction(): 20261201010000 (second factor)
-- made it PL/pgSQL, because it runs inside every API request's restrictive policy and a
-- security-definer SQL function is planned again at each call (about 50 µs instead of 200);
-- 20261201030000 (strike ladder) made it read app_clock() so that sanctions end by the test
-- clock too, but as SQL. This keeps both: PL/pgSQL, the clock read once per call.
create or replace function public.account_restriction(p_user uuid) returns text
language plpgsql stable
security definer
set search_path = ''
as $$
declare
  at timestamptz := public.app_clock();
begin
  return (select s.kind from public.account_sanctions s
          where s.user_id = p_user and s.lifted_at is null and s.kind in ('ban', 'suspension')
            and s.starts_at <= at and (s.ends_at is null or s.ends_at > at)
          order by s.kind = 'ban' desc
          limit 1);
end
$$;
revoke execute on function public.account_restriction(uuid) from public, anon, authenticated;
