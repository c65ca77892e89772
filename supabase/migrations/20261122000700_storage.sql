-- Storage buckets of the app and who may write where. All three are public (read by public URL);
-- a user writes only under their own folder: {userId}/... (spec §5: {userId}/{timestamp}_{name}).
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values
  ('tracks', 'tracks', true, 50 * 1024 * 1024,
   array['audio/mpeg', 'audio/mp3', 'audio/wav', 'audio/x-wav', 'audio/wave', 'audio/ogg', 'audio/flac', 'audio/x-flac']),
  ('covers', 'covers', true, 5 * 1024 * 1024, array['image/jpeg', 'image/png', 'image/webp']),
  ('avatars', 'avatars', true, 2 * 1024 * 1024, array['image/jpeg', 'image/png', 'image/webp'])
on conflict (id) do nothing;

create policy "soundloft buckets: readable by everyone" on storage.objects
  for select to anon, authenticated
  using (bucket_id in ('tracks', 'covers', 'avatars'));

create policy "soundloft buckets: a user uploads into their own folder" on storage.objects
  for insert to authenticated
  with check (
    bucket_id in ('tracks', 'covers', 'avatars')
    and (storage.foldername(name))[1] = (select auth.uid()::text)
  );

create policy "soundloft buckets: the owner replaces their files" on storage.objects
  for update to authenticated
  using (
    bucket_id in ('tracks', 'covers', 'avatars')
    and (storage.foldername(name))[1] = (select auth.uid()::text)
  )
  with check (
    bucket_id in ('tracks', 'covers', 'avatars')
    and (storage.foldername(name))[1] = (select auth.uid()::text)
  );

create policy "soundloft buckets: the owner or an admin deletes" on storage.objects
  for delete to authenticated
  using (
    bucket_id in ('tracks', 'covers', 'avatars')
    and ((storage.foldername(name))[1] = (select auth.uid()::text) or (select public.is_admin()))
  );

create policy "buckets: readable by everyone" on storage.buckets
  for select to anon, authenticated using (true);
