-- Found by the attack suite (npm run test:security, docs/security.md): functions the API roles
-- call raised 'Track not found' / 'Playlist not found' / 'Withdrawal not found' / 'Report not
-- found' with SQLSTATE P0002, which PostgREST (and the embedded server) answers with a 500. A
-- client's mistake (an unknown or someone else's id) is never a 5xx, and the offline outbox
-- retries a 5xx forever (src/data/sync/errors.ts) where it should drop the mutation.
--
-- Every function in public that anon or authenticated may execute and that raises P0002 is
-- re-created from its own current definition with PT404 instead (PostgREST: HTTP 404, the
-- message kept), like increment_track_plays and record_offline_play already do. CREATE OR
-- REPLACE keeps the owner, grants, SECURITY DEFINER and search_path.
do $$
declare
  f record;
  def text;
begin
  for f in
    select p.oid
    from pg_proc p
    where p.pronamespace = 'public'::regnamespace
      and p.prokind = 'f'
      and (has_function_privilege('anon', p.oid, 'execute')
           or has_function_privilege('authenticated', p.oid, 'execute'))
      and p.prosrc like '%errcode = ''P0002''%'
  loop
    def := pg_get_functiondef(f.oid);
    execute replace(def, 'errcode = ''P0002''', 'errcode = ''PT404''');
  end loop;
end
$$;
