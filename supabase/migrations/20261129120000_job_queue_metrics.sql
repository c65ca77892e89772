-- /metrics reads the job queues at every scrape (server/ops/metrics.ts, docs/deploy.md#metrics):
-- queued jobs have a partial index already; running jobs get one, so the count never scans the
-- finished jobs (one row per track). The claim's takeover of stale running jobs
-- (`state = 'running' and locked_at < ...`) can use it too.
create index track_jobs_running_idx on public.track_jobs (locked_at) where state = 'running';
create index stem_jobs_running_idx on public.stem_jobs (locked_at) where state = 'running';
