-- A held listen (docs/plays.md 'Held plays') of a track that is removed when the release job
-- comes (a copyright notice upheld, an admin takedown) is not credited: a removed track earns
-- nothing while removed (issue 31). It stays held, and the job releases it as before once the
-- track is restored (a counter-notice's restoration); a ban of the listener still refuses it.
-- Only the candidate filter of release_held_plays changes.

create or replace function public.release_held_plays(p_limit integer default 500) returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_row record;
  v_refusal text;
  v_uploader uuid;
  v_done integer := 0;
begin
  perform public.require_argument(p_limit between 1 and 10000, 'p_limit must be 1 to 10000.');
  for v_row in
    select e.id, e.listener_id, e.track_id, e.played_at
      from public.play_events e
     where e.held
       and (public.account_banned(e.listener_id)
            or public.account_established(e.listener_id, now())
            or not exists (select 1 from auth.users u where u.id = e.listener_id))
       -- A listen of a removed track (a copyright notice, a takedown) earns nothing while it is
       -- removed: it stays held and is released if the track is restored. A ban still refuses it.
       and (public.account_banned(e.listener_id)
            or not exists (select 1 from public.tracks t
                            where t.id = e.track_id and t.taken_down_at is not null))
     order by e.played_at, e.id
     limit p_limit
     for update of e skip locked
  loop
    if public.account_banned(v_row.listener_id)
       or not exists (select 1 from auth.users u where u.id = v_row.listener_id) then
      update public.play_events e set held = false, refusal = 'new_account' where e.id = v_row.id;
      v_done := v_done + 1;
      continue;
    end if;
    -- The caps' counts are exact under the listener's plays lock and the track row lock; both
    -- only if free (a play in progress holds them): else a later pass.
    if not pg_try_advisory_xact_lock(hashtext('plays:' || v_row.listener_id::text)) then
      continue;
    end if;
    select t.uploaded_by into v_uploader
      from public.tracks t where t.id = v_row.track_id
       for update skip locked;
    if not found then
      continue;
    end if;
    v_refusal := public.play_cap_refusal(v_row.listener_id, v_row.track_id, v_row.played_at);
    update public.play_events e
       set held = false, counted = v_refusal is null, refusal = v_refusal
     where e.id = v_row.id;
    if v_refusal is null then
      update public.tracks t set plays = t.plays + 1 where t.id = v_row.track_id;
      perform public.post_ledger_entry(v_uploader, public.play_rate_eur(), 'play',
                                       v_row.track_id, v_row.listener_id, null);
    end if;
    v_done := v_done + 1;
  end loop;
  return v_done;
end
$$;
revoke execute on function public.release_held_plays(integer) from public, anon, authenticated;
