-- Realtime: the tables whose changes signed-in clients may subscribe to (postgres_changes).
-- Every row a client receives is one it may select at that moment under these tables' RLS
-- policies and column grants; deletes carry the primary key only. Hosted Supabase streams this
-- publication from its WAL; the embedded server (server/realtime) from triggers it installs.
alter publication supabase_realtime add table
  public.tracks,
  public.track_lyrics,
  public.liked_tracks,
  public.playlists,
  public.followers,
  public.listening_history,
  public.profiles;
