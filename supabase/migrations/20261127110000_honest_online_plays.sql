-- Honest plays, online (issue 23; docs/plays.md): increment_track_plays counts a listen only
-- against the audio the server served to the caller for the track (served_audio, written by
-- the storage app through record_served_audio: 20261127100000), at a human pace, within the
-- bounds of play_bound_refusal. Every listen it judges is kept in play_events, refused ones with
-- their reason. An unknown track id is a 404 (PT404), not a 500 (P0002).

-- Rows of the earlier rule that were not counted went over the per-day bound (the only way a
-- recorded listen stayed uncounted).
update public.play_events set refusal = 'daily_track_limit' where not counted;
alter table public.play_events
  add constraint play_events_counted_or_refused check (counted = (refusal is null));

-- ---------------------------------------------------------------------------------------------
-- An online listen (the player calls it after 30 s of playback, or at the end of a shorter
-- track). Returns whether it was counted. Same signature as before: session_id is the
-- idempotency key of the call (default: the JWT's session_id claim, else the UTC day), played_at
-- is accepted and ignored (the server's clock decides; backdating is for offline plays only).
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
  v_listenable boolean;
  v_duration integer;
  v_need double precision;
  v_served double precision;
  v_first timestamptz;
  v_refusal text;
  v_session text;
  v_event uuid;
  v_evidence boolean := false;
begin
  if v_listener is null then
    raise exception 'Auth session missing!' using errcode = '42501';
  end if;
  -- The track row lock serialises concurrent calls for this track (the counts are exact) and a
  -- takedown or status change: a play counts only against the row as it is now.
  select t.uploaded_by, public.track_is_listenable(t.status, t.taken_down_at), t.duration
    into v_uploader, v_listenable, v_duration
  from public.tracks t where t.id = increment_track_plays.track_id
  for update;
  if not found then
    raise exception 'Track not found' using errcode = 'PT404';
  end if;
  if not v_listenable then
    return false; -- a hidden track: nothing recorded (20261126200000)
  end if;
  v_session := left(coalesce(
    nullif(btrim(increment_track_plays.session_id), ''),
    nullif(auth.jwt() ->> 'session_id', ''),
    'day:' || to_char(now() at time zone 'utc', 'YYYY-MM-DD')
  ), 200);
  if exists (select 1 from public.play_events e
              where e.listener_id = v_listener and e.track_id = increment_track_plays.track_id
                and e.session_id = v_session) then
    return false; -- a retry of a call already judged
  end if;

  if v_uploader = v_listener then
    v_refusal := 'own_track';
  else
    v_need := least(public.play_threshold_seconds(), greatest(v_duration, 1));
    select sum(public.served_seconds(s.bytes, s.object_size, v_duration)), min(s.first_served_at)
      into v_served, v_first
      from public.served_audio s
     where s.listener_id = v_listener and s.track_id = increment_track_plays.track_id
       and s.claimed_at is null
       and s.last_served_at > now() - public.play_evidence_max_age();
    if v_first is null then
      v_refusal := 'no_audio_served';
    elsif v_served + 1 < v_need then
      -- (1 s: the bytes of the file's headers and the rounding of duration)
      v_refusal := 'not_enough_audio';
    elsif extract(epoch from now() - v_first) < v_need - public.play_pace_slack_seconds() then
      v_refusal := 'too_fast';
    else
      v_evidence := true;
      v_refusal := public.play_bound_refusal(v_listener, increment_track_plays.track_id, now());
    end if;
  end if;

  v_event := public.record_judged_play(
    v_listener, increment_track_plays.track_id, v_uploader, v_session, now(), v_refusal,
    false, null, v_served::real, v_evidence);
  if v_evidence and v_event is not null then
    -- The evidence is used up by this listen: the next one needs audio served anew.
    update public.served_audio s set claimed_at = now(), claimed_by = v_event
     where s.listener_id = v_listener and s.track_id = increment_track_plays.track_id
       and s.claimed_at is null;
  end if;
  return v_event is not null and v_refusal is null;
end
$$;
revoke execute on function public.increment_track_plays(uuid, text, timestamptz) from public, anon;
grant execute on function public.increment_track_plays(uuid, text, timestamptz) to authenticated, service_role;

