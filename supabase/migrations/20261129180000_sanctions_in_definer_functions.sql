-- Account sanctions in the security definer functions that write for the caller (they run past
-- RLS, so the restrictive policies of 20261129170000 do not reach them). The rule of
-- docs/trust-and-safety.md: listening (an online play, an offline play, renewing one's offline
-- downloads) stays allowed while suspended and is refused when banned; editing (adding a track to
-- a playlist, retrying a track's processing) is refused while suspended too. Each function is
-- re-created from its own current definition (pg_get_functiondef, like 20261129160000) with one
-- line first after `begin`: `perform public.refuse_sanctioned_caller('listen' | 'edit')`. CREATE
-- OR REPLACE keeps the owner, grants, SECURITY DEFINER and search_path.
-- tests/security/sanctions.test.ts calls each as a suspended and as a banned user.

-- Raises when the caller (auth.uid()) may not do p_need ('listen' or 'edit'). Anon and the
-- service role (no auth.uid()) pass: each function refuses or allows them on its own terms.
create or replace function public.refuse_sanctioned_caller(p_need text) returns void
language plpgsql stable
set search_path = ''
as $$
begin
  if not public.is_active_account() then
    raise exception 'Your account is banned.' using errcode = '42501';
  end if;
  if p_need = 'edit' and not public.may_contribute() then
    raise exception 'Your account is suspended: editing is paused.' using errcode = '42501';
  end if;
end
$$;
revoke execute on function public.refuse_sanctioned_caller(text) from public, anon, authenticated;

do $$
declare
  g record;
  def text;
  at integer;
begin
  for g in
    select * from (values
      ('public.add_track_to_playlist(uuid, uuid)'::regprocedure, 'edit'),
      ('public.retry_track_processing(uuid)'::regprocedure, 'edit'),
      ('public.increment_track_plays(uuid, text, timestamptz)'::regprocedure, 'listen'),
      ('public.record_offline_play(uuid, timestamptz, text, text)'::regprocedure, 'listen'),
      ('public.renew_track_downloads(text)'::regprocedure, 'listen')
    ) as t(fn, need)
  loop
    def := pg_get_functiondef(g.fn);
    at := position('$function$' in def);
    at := at + regexp_instr(substr(def, at), '\mbegin\M') + 3;
    if at <= 4 then
      raise exception '% has no begin', g.fn;
    end if;
    def := substr(def, 1, at)
      || format(E'\n  perform public.refuse_sanctioned_caller(%L);', g.need)
      || substr(def, at + 1);
    execute def;
  end loop;
end
$$;
