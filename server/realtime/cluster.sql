-- The embedded Realtime's fan-out between nodes on one PostgreSQL (server/realtime/cluster.ts,
-- docs/realtime.md § Several nodes). Applied by server/realtime at every start on PostgreSQL;
-- idempotent. Never part of supabase/migrations (hosted Realtime has its own cluster).
--
-- Broadcasts and presence diffs travel as NOTIFY on `embedded_realtime_cluster`; a message over
-- NOTIFY's 8000-byte limit is kept in `messages` and the notification carries `#<id>`. Presence
-- is kept in `presences` (one row per tracked channel) so a node answers a join with everyone's
-- state; `nodes` holds each node's heartbeat, and a node that stops beating is removed with its
-- presences by whichever node sweeps next (a leave is sent for each).
select pg_catalog.pg_advisory_xact_lock(7365726175); -- one installer at a time per database

create schema if not exists embedded_realtime;
revoke all on schema embedded_realtime from public;

create unlogged table if not exists embedded_realtime.nodes (
  id uuid primary key,
  seen_at timestamptz not null default pg_catalog.now()
);

create unlogged table if not exists embedded_realtime.presences (
  node_id uuid not null,
  -- the tracking channel (unique per join on its node)
  owner text not null,
  -- public:realtime:<name> or private:realtime:<name>
  topic text not null,
  key text not null,
  meta jsonb not null,
  primary key (node_id, owner)
);
create index if not exists presences_topic_idx on embedded_realtime.presences (topic);

create unlogged table if not exists embedded_realtime.messages (
  id bigint generated always as identity primary key,
  body text not null,
  created_at timestamptz not null default pg_catalog.now()
);

-- Sends one cluster message: as the notification's payload when it fits, else through the table.
create or replace function embedded_realtime.cluster_send(p_body text) returns void
  language plpgsql
  set search_path = ''
as $$
declare
  ref bigint;
begin
  if pg_catalog.octet_length(p_body) < 7900 then
    perform pg_catalog.pg_notify('embedded_realtime_cluster', p_body);
  else
    insert into embedded_realtime.messages (body) values (p_body) returning id into ref;
    perform pg_catalog.pg_notify('embedded_realtime_cluster', '#' || ref);
  end if;
end
$$;

-- Removes the nodes that have not beaten for `p_expiry_ms` (and `p_node`, a node that stops
-- cleanly), then every presence whose node is gone, sending a leave for each; drops messages
-- older than a minute. Answers the number of presences removed. Safe on several nodes at once:
-- each row is deleted (and its leave sent) by one caller only.
create or replace function embedded_realtime.sweep(p_expiry_ms int, p_node uuid default null)
  returns int
  language plpgsql
  set search_path = ''
as $$
declare
  r record;
  n int := 0;
  gone int;
begin
  delete from embedded_realtime.messages where created_at < pg_catalog.now() - interval '1 minute';
  delete from embedded_realtime.nodes
   where id = p_node or seen_at < pg_catalog.now() - pg_catalog.make_interval(secs => p_expiry_ms / 1000.0);
  get diagnostics gone = row_count;
  -- The presences of the nodes just removed; now and then (1 sweep in 10) also rows a node wrote
  -- after it had been swept and before it died, which no node removal would find.
  if gone = 0 and pg_catalog.random() >= 0.1 then
    return 0;
  end if;
  for r in
    delete from embedded_realtime.presences p
     where not exists (select 1 from embedded_realtime.nodes n where n.id = p.node_id)
    returning p.topic, p.key, p.meta
  loop
    perform embedded_realtime.cluster_send(pg_catalog.jsonb_build_object(
      'id', pg_catalog.gen_random_uuid(),
      'kind', 'presence',
      'topic', r.topic,
      'diff', pg_catalog.jsonb_build_object(
        'joins', '{}'::jsonb,
        'leaves', pg_catalog.jsonb_build_object(r.key,
          pg_catalog.jsonb_build_object('metas', pg_catalog.jsonb_build_array(r.meta)))))::text);
    n := n + 1;
  end loop;
  return n;
end
$$;
