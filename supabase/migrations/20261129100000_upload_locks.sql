-- Locks of resumable uploads (TUS) that every node sees (server/storage/upload-locker.ts): with the
-- object store on S3 any node may receive any PATCH of an upload, so the lock that keeps two
-- requests from writing one upload at once must live here, not in one process's memory. A lock
-- is a lease: its holder renews it while the request runs; a node that died loses it when it
-- expires. Only the server touches it.
create table storage.upload_locks (
  id text primary key,
  holder text not null,
  expires_at timestamptz not null
);

alter table storage.upload_locks enable row level security;
revoke all on storage.upload_locks from public, anon, authenticated;
