-- The sender's claim answers whether the mail is wanted (public.mail_wanted) itself.
--
-- The sender used to join the claim's rows back to public.mail_outbox for the recipient's user:
--   select ... from public.mail_outbox_claim($1) c join public.mail_outbox m on m.id = c.id
-- On PostgreSQL the outer query's snapshot is taken when the statement starts, while the
-- (volatile) claim function's UPDATE takes its own, later snapshot: a row committed in between
-- was claimed (attempt counted, leased for 2 minutes) but was not visible to the join, so the
-- sender dropped it and the mail went out only when the lease ran out (a CI flake of
-- tests/security/mail-outbox.test.ts: "mail 2 neither sent nor failed"). The claim now returns
-- everything the sender needs from the row it updated.
drop function public.mail_outbox_claim(integer);
create function public.mail_outbox_claim(p_limit integer default 20)
returns table (id bigint, template text, to_email text, subject text, body text, params jsonb,
               attempts integer, wanted boolean)
language plpgsql
security definer
set search_path = ''
as $$
#variable_conflict use_column
begin
  return query
  with due as (
    select m.id from public.mail_outbox m
    where m.sent_at is null and m.next_attempt_at <= now() and m.attempts < 10
    order by m.next_attempt_at, m.id
    limit greatest(1, least(coalesce(p_limit, 20), 100))
    for update skip locked
  )
  update public.mail_outbox m
     set attempts = m.attempts + 1, next_attempt_at = now() + interval '2 minutes'
    from due
   where m.id = due.id
  returning m.id, m.template,
            coalesce(m.to_email, (select u.email from auth.users u where u.id = m.to_user))::text,
            m.subject, m.body, m.params, m.attempts,
            public.mail_wanted(m.to_user, m.template);
end
$$;
revoke execute on function public.mail_outbox_claim(integer) from public, anon, authenticated;
