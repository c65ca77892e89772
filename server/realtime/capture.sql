-- The embedded Realtime's own objects in the database it serves (as Supabase Realtime keeps its
-- `realtime` schema in a project's database). Applied by server/realtime at every start;
-- idempotent. Never part of supabase/migrations: a hosted project streams changes from its WAL.
--
-- A trigger on every table of the `supabase_realtime` publication sends, after commit, one
-- NOTIFY per changed row with the table, the operation and the primary key only (NOTIFY payloads
-- are limited to 8000 bytes); the server reads the row itself, as each recipient, under RLS.
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
