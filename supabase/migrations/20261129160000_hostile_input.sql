-- Found by the hostile-input suite (tests/security/hostile-input.test.ts, docs/security.md):
--
-- 1. A PayPal e-mail of 5,000 characters passed request_withdrawal's e-mail pattern and then hit
--    withdrawals.details' 2,000-character check: a 23514 the request-withdrawal function answered
--    with a 500. PayPal details are an e-mail address: at most 254 characters (RFC 5321), in the
--    table (a check) and in the function (the spec's message first, so the caller reads why).
-- 2. RPCs the app calls took nonsense and answered 200: negative page sizes and limits, a null
--    user, a null or year-99999 statement month, 100,000-character device ids and search texts.
--    Each now refuses it first with SQLSTATE 22023 (invalid_parameter_value: HTTP 400 on
--    PostgREST and here) and a sentence naming the argument. The guards are added to the
--    functions' own current definitions (CREATE OR REPLACE keeps owner, grants, SECURITY DEFINER
--    and search_path), as 20261127190000_not_found_is_404 does.

alter table public.withdrawals
  add constraint withdrawals_paypal_email_length
  check (method <> 'paypal' or char_length(details) <= 254);

-- Raises 22023 with `message` unless `ok` is true (null is not ok). For guards at the top of API
-- functions; returns true so SQL functions can call it in a statement of their own.
create or replace function public.require_argument(ok boolean, message text)
returns boolean
language plpgsql
immutable parallel safe
set search_path = ''
as $$
begin
  if ok is not true then
    raise exception '%', message using errcode = '22023';
  end if;
  return true;
end
$$;
revoke all on function public.require_argument(boolean, text) from public;
grant execute on function public.require_argument(boolean, text) to anon, authenticated, service_role;

-- request_withdrawal: the PayPal e-mail's length, before its pattern (same message as the spec's).
do $$
declare
  def text := pg_get_functiondef('public.request_withdrawal(numeric, text, text)'::regprocedure);
  old_check constant text := $c$if method = 'paypal' and coalesce(btrim(details), '') !~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' then$c$;
begin
  if position(old_check in def) = 0 then
    raise exception 'request_withdrawal: the PayPal check to extend was not found';
  end if;
  execute replace(def, old_check, $c$if method = 'paypal' and (char_length(btrim(coalesce(details, ''))) > 254
      or coalesce(btrim(details), '') !~ '^[^@\s]+@[^@\s]+\.[^@\s]+$') then$c$);
end
$$;

-- The guards, added at the top of each function's body: plpgsql after its first `begin`, SQL
-- functions as a first statement.
do $$
declare
  g record;
  def text;
  lang text;
  at int;
begin
  for g in
    select * from (values
      ('public.admin_artists(integer, integer)'::regprocedure,
       $g$(page_size between 1 and 1000 and page_offset >= 0), 'page_size must be 1 to 1000 and page_offset 0 or more.'$g$),
      ('public.admin_refused_listeners(timestamptz, integer)'::regprocedure,
       $g$(p_limit between 1 and 1000 and p_since is not null), 'p_limit must be 1 to 1000 and p_since a time.'$g$),
      ('public.admin_refused_tracks(timestamptz, integer)'::regprocedure,
       $g$(p_limit between 1 and 1000 and p_since is not null), 'p_limit must be 1 to 1000 and p_since a time.'$g$),
      ('public.apply_mutations(text, jsonb)'::regprocedure,
       $g$(char_length(p_client_id) between 1 and 200), 'p_client_id must be 1 to 200 characters.'$g$),
      ('public.my_earnings(integer, integer)'::regprocedure,
       $g$(days between 1 and 3660 and months between 1 and 120), 'days must be 1 to 3660 and months 1 to 120.'$g$),
      ('public.my_earnings_statement(date)'::regprocedure,
       $g$(month between date '2000-01-01' and current_date + 366), 'month must be a month from 2000 to next year.'$g$),
      ('public.plan_allows_offline(uuid)'::regprocedure,
       $g$(p_user is not null), 'p_user is required.'$g$),
      ('public.renew_track_downloads(text)'::regprocedure,
       $g$(device_id is null or char_length(device_id) <= 200), 'device_id must be at most 200 characters.'$g$),
      ('public.search_tracks(text, integer)'::regprocedure,
       $g$(coalesce(char_length(q), 0) <= 1000 and coalesce(max_results, 1) between 1 and 1000), 'q must be at most 1000 characters and max_results 1 to 1000.'$g$)
    ) as t(fn, guard)
  loop
    def := pg_get_functiondef(g.fn);
    select l.lanname into lang from pg_proc p join pg_language l on l.oid = p.prolang where p.oid = g.fn;
    if lang = 'plpgsql' then
      at := position('$function$' in def);
      at := at + regexp_instr(substr(def, at), '\mbegin\M') + 3;
      def := substr(def, 1, at) || format(E'\n  perform public.require_argument(%s);', g.guard) || substr(def, at + 1);
    elsif lang = 'sql' then
      at := position('$function$' in def) + length('$function$') - 1;
      def := substr(def, 1, at) || format(E'\nselect public.require_argument(%s);', g.guard) || substr(def, at + 1);
    else
      raise exception '% is %, not plpgsql or sql', g.fn, lang;
    end if;
    execute def;
  end loop;
end
$$;
