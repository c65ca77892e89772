-- The embedded Realtime's own objects in the database it serves (as Supabase Realtime keeps its
-- `realtime` schema in a project's database). Applied by server/realtime at every start;
-- idempotent. Never part of supabase/migrations: a hosted project streams changes from its WAL.
--
-- A trigger on every table of the `supabase_realtime` publication sends, after commit, one
-- NOTIFY per changed row with the table, the operation, the primary key and (when it fits: NOTIFY
-- payloads are limited to 8000 bytes) the new row, on which subscriptions' filters are checked.
-- What a recipient receives is what its own select returns, under RLS (visible_rows below).
select pg_catalog.pg_advisory_xact_lock(7365726174); -- one installer at a time per database

create schema if not exists embedded_realtime;
revoke all on schema embedded_realtime from public;

create or replace function embedded_realtime.capture() returns trigger
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  r jsonb;
  keys jsonb := '{}'::jsonb;
  col text;
  payload text;
  full_payload text;
begin
  if tg_op = 'DELETE' then
    r := pg_catalog.to_jsonb(old);
  else
    r := pg_catalog.to_jsonb(new);
  end if;
  foreach col in array tg_argv loop
    keys := keys || pg_catalog.jsonb_build_object(col, r -> col);
  end loop;
  payload := pg_catalog.jsonb_build_object(
    's', tg_table_schema,
    't', tg_table_name,
    'a', tg_op,
    'k', keys,
    'ts', pg_catalog.to_char(pg_catalog.now() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
  )::text;
  -- The new row too when it fits: the server checks subscriptions' filters on it without
  -- reading the row back (recipients still get only what their own select returns).
  if tg_op <> 'DELETE' then
    full_payload := pg_catalog.jsonb_set(payload::jsonb, '{r}', r)::text;
    if pg_catalog.octet_length(full_payload) < 8000 then
      payload := full_payload;
    end if;
  end if;
  if pg_catalog.octet_length(payload) < 8000 then
    perform pg_catalog.pg_notify('embedded_realtime', payload);
  else
    raise warning 'embedded realtime: the primary key of %.% is too large to notify', tg_table_schema, tg_table_name;
  end if;
  return null;
end
$$;

-- Puts the capture trigger on each published table that has a primary key (its columns are the
-- trigger's arguments) and takes it off tables that left the publication.
create or replace function embedded_realtime.sync_triggers() returns void
  language plpgsql
  set search_path = ''
as $$
declare
  t record;
begin
  for t in
    select c.oid, n.nspname, c.relname
    from pg_catalog.pg_trigger tg
    join pg_catalog.pg_class c on c.oid = tg.tgrelid
    join pg_catalog.pg_namespace n on n.oid = c.relnamespace
    where tg.tgname = 'embedded_realtime_capture'
      and not exists (
        select 1 from pg_catalog.pg_publication_tables p
        where p.pubname = 'supabase_realtime' and p.schemaname = n.nspname and p.tablename = c.relname)
  loop
    execute pg_catalog.format('drop trigger embedded_realtime_capture on %I.%I', t.nspname, t.relname);
  end loop;

  for t in
    select p.schemaname, p.tablename,
      (select pg_catalog.string_agg(pg_catalog.quote_literal(a.attname), ', ' order by k.ord)
         from pg_catalog.pg_constraint con
         cross join lateral pg_catalog.unnest(con.conkey) with ordinality as k(attnum, ord)
         join pg_catalog.pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.attnum
        where con.conrelid = pg_catalog.format('%I.%I', p.schemaname, p.tablename)::regclass
          and con.contype = 'p') as pk
    from pg_catalog.pg_publication_tables p
    where p.pubname = 'supabase_realtime'
  loop
    if t.pk is null then
      raise warning 'embedded realtime: %.% has no primary key; its changes are not streamed', t.schemaname, t.tablename;
      continue;
    end if;
    execute pg_catalog.format('drop trigger if exists embedded_realtime_capture on %I.%I', t.schemaname, t.tablename);
    execute pg_catalog.format(
      'create trigger embedded_realtime_capture after insert or update or delete on %I.%I '
      'for each row execute function embedded_realtime.capture(%s)',
      t.schemaname, t.tablename, t.pk);
  end loop;
end
$$;

select embedded_realtime.sync_triggers();

-- The rows each recipient may see, in one statement for a whole batch of changes (as Realtime's
-- `realtime.apply_rls` checks every subscriber of a change in one call). `request`:
--   {statements: [{name, sql}], recipients: [{role, claims, reads: [{statement, keys}]}]}
-- where each statement is a select of one role's granted columns of one table by primary key
-- ($1: a JSON array of key objects; one column, the row as JSON), built by
-- server/realtime/changes.ts. Statements are prepared once per database session (their plans are
-- cached: planning, not executing, is what a per-recipient select mostly costs), and re-planned
-- by Postgres when the role or the table's policies change. For each recipient: the role and
-- the JWT claims are set exactly as a REST request sets them, then its selects run (RLS
-- applies). A recipient whose select raises (a policy erroring) gets its error instead, and the
-- others are unaffected. Answers (recipient, read, row) by their positions in `request`.
-- Security invoker, and only the server may call it (the schema is closed to API roles).
create or replace function embedded_realtime.visible_rows(request jsonb)
  returns table (recipient integer, read integer, row_data jsonb, error text)
  language plpgsql
  -- No `set search_path`: the selects and the policies' functions run with the search path a
  -- REST request has.
  set plan_cache_mode = force_generic_plan
as $$
declare
  stmt jsonb;
  viewer jsonb;
  one_read jsonb;
  names text[] := '{}';
  i integer := 0;
  j integer;
  r jsonb;
begin
  for stmt in select v from pg_catalog.jsonb_array_elements(request -> 'statements') as e(v) loop
    if not exists (
      select 1 from pg_catalog.pg_prepared_statements p where p.name = stmt ->> 'name'
    ) then
      execute pg_catalog.format('prepare %I(jsonb) as %s', stmt ->> 'name', stmt ->> 'sql');
    end if;
    names := names || (stmt ->> 'name');
  end loop;
  for viewer in select v from pg_catalog.jsonb_array_elements(request -> 'recipients') as e(v) loop
    begin
      perform pg_catalog.set_config('role', viewer ->> 'role', true),
              pg_catalog.set_config('request.jwt.claims', viewer ->> 'claims', true),
              pg_catalog.set_config('request.method', 'GET', true),
              pg_catalog.set_config('request.path', '/realtime/v1/websocket', true),
              pg_catalog.set_config('request.headers', '{}', true);
      j := 0;
      for one_read in select v from pg_catalog.jsonb_array_elements(viewer -> 'reads') as e(v) loop
        for r in execute pg_catalog.format(
          'execute %I(%L)', names[(one_read ->> 'statement')::integer + 1], one_read -> 'keys')
        loop
          recipient := i;
          read := j;
          row_data := r;
          error := null;
          return next;
        end loop;
        j := j + 1;
      end loop;
      perform pg_catalog.set_config('role', null, true);
    exception when others then
      perform pg_catalog.set_config('role', null, true);
      recipient := i;
      read := null;
      row_data := null;
      error := sqlerrm;
      return next;
    end;
    i := i + 1;
  end loop;
end
$$;
revoke all on function embedded_realtime.visible_rows(jsonb) from public;
