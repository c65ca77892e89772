-- may_fetch_original runs inside the tracks bucket's select policy, once per object row a reader
-- asks for: it found the track by a LIKE on audio_url, a scan of every track. Both spellings of
-- audio_url reduce to the object name through track_audio_object (immutable), so one expression
-- index serves the lookup.
create index tracks_audio_object_idx on public.tracks (public.track_audio_object(audio_url));

create or replace function public.may_fetch_original(object_name text) returns boolean
language plpgsql stable
set search_path = ''
as $$
declare
  t record;
begin
  for t in
    select tr.status, tr.qualities from public.tracks tr
     where public.track_audio_object(tr.audio_url) = object_name
  loop
    if t.status = 'ready' and (
         ('lossless' = any (t.qualities) and public.caller_quality_rank() >= 3)
         or (t.qualities = '{}' and auth.uid() is not null)) then
      return true;
    end if;
  end loop;
  return false;
end
$$;
