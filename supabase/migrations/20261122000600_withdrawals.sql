-- Withdrawals move money: requested by the owner, processed by an admin, both through functions.
-- pending → completed | rejected (DECISIONS.md); a rejection returns the amount to the balance.

create or replace function public.request_withdrawal(amount numeric, method text, details text)
returns public.withdrawals
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_user uuid := auth.uid();
  v_balance numeric;
  v_details jsonb;
  v_row public.withdrawals;
begin
  if v_user is null then
    raise exception 'Not authenticated' using errcode = '42501';
  end if;
  if method is null or method not in ('paypal', 'bank') then
    raise exception 'Choose PayPal or bank transfer.' using errcode = 'P0001';
  end if;
  if method = 'paypal' and coalesce(btrim(details), '') !~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' then
    raise exception 'Please provide your PayPal email.' using errcode = 'P0001';
  end if;
  if method = 'bank' then
    begin
      v_details := details::jsonb;
    exception when others then
      v_details := null;
    end;
    if v_details is null or jsonb_typeof(v_details) <> 'object'
       or coalesce(btrim(v_details ->> 'accountName'), '') = ''
       or coalesce(btrim(v_details ->> 'iban'), '') = ''
       or coalesce(btrim(v_details ->> 'swift'), '') = '' then
      raise exception 'Please fill in all bank details.' using errcode = 'P0001';
    end if;
  end if;
  -- Lock the balance first: two concurrent requests cannot both spend it.
  select p.balance into v_balance from public.profiles p where p.id = v_user for update;
  if amount is null or amount < public.minimum_withdrawal_eur() or v_balance < public.minimum_withdrawal_eur() then
    raise exception 'Minimum withdrawal amount is 5 EUR.' using errcode = 'P0001';
  end if;
  if amount <> round(amount, 2) then
    raise exception 'Amounts are in whole cents.' using errcode = 'P0001';
  end if;
  if amount > v_balance then
    raise exception 'Insufficient balance.' using errcode = 'P0001';
  end if;
  insert into public.withdrawals (user_id, amount, method, details)
  values (v_user, amount, method, btrim(details))
  returning * into v_row;
  perform public.post_ledger_entry(v_user, -amount, 'withdrawal', null, null, v_row.id);
  return v_row;
end
$$;
revoke execute on function public.request_withdrawal(numeric, text, text) from public, anon;
grant execute on function public.request_withdrawal(numeric, text, text) to authenticated, service_role;

create or replace function public.process_withdrawal(withdrawal_id uuid, status text)
returns public.withdrawals
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_row public.withdrawals;
begin
  if not public.is_admin() and coalesce(auth.role(), '') <> 'service_role' then
    raise exception 'Administrator access required' using errcode = '42501';
  end if;
  if status is null or status not in ('completed', 'rejected') then
    raise exception 'A withdrawal is completed or rejected.' using errcode = 'P0001';
  end if;
  select * into v_row from public.withdrawals w where w.id = process_withdrawal.withdrawal_id for update;
  if not found then
    raise exception 'Withdrawal not found' using errcode = 'P0002';
  end if;
  if v_row.status <> 'pending' then
    raise exception 'This withdrawal has already been processed.' using errcode = 'P0001';
  end if;
  update public.withdrawals w
     set status = process_withdrawal.status, processed_at = now(), processed_by = auth.uid()
   where w.id = v_row.id
  returning * into v_row;
  if v_row.status = 'rejected' then
    perform public.post_ledger_entry(v_row.user_id, v_row.amount, 'withdrawal_reversal', null, null, v_row.id);
  end if;
  return v_row;
end
$$;
revoke execute on function public.process_withdrawal(uuid, text) from public, anon;
grant execute on function public.process_withdrawal(uuid, text) to authenticated, service_role;
