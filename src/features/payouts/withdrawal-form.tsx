import {
  Alert,
  Button,
  Paper,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconAlertCircle, IconWallet } from '@tabler/icons-react';
import { useRef, useState, type FormEvent } from 'react';
import { requestWithdrawal, WITHDRAWAL_FALLBACK } from '@/data/remote/payouts-remote';
import { toast } from '@/components/toast';
import { PAYOUT } from '@/lib/constants';
import { centsToDecimal, formatEur } from '@/lib/euros';
import {
  checkWithdrawal,
  MINIMUM_CENTS,
  WITHDRAWAL_MESSAGES,
  type WithdrawalInput,
  type WithdrawalMethod,
} from './withdrawal-validation';

export interface WithdrawalFormProps {
  /** What may be withdrawn, in cents (the balance rounded down). */
  balanceCents: number;
  /** After a request is accepted: re-read the balance and the history. */
  onRequested(): void;
}

/**
 * Spec 2/5: the withdrawal form at a balance of 5 EUR or more, else the 'Insufficient Balance'
 * panel. One request at a time (the button is busy until the server answers); the server's lock
 * keeps a second tab from spending the same balance.
 */
export function WithdrawalForm({ balanceCents, onRequested }: WithdrawalFormProps) {
  const [input, setInput] = useState<WithdrawalInput>({
    amount: centsToDecimal(balanceCents),
    method: 'paypal',
    paypalEmail: '',
    accountName: '',
    iban: '',
    swift: '',
  });
  const [error, setError] = useState<string | null>(null);
  const [field, setField] = useState<keyof WithdrawalInput | null>(null);
  const [busy, setBusy] = useState(false);
  const inFlight = useRef(false);

  if (balanceCents < MINIMUM_CENTS) {
    return (
      <Paper
        withBorder
        radius="md"
        p="md"
        bg="dark.7"
        component="section"
        aria-labelledby="insufficient-title"
      >
        <Stack gap={6}>
          <Title order={2} size="h4" id="insufficient-title">
            Insufficient Balance
          </Title>
          <Text c="dimmed" size="sm">
            You need at least {formatEur(PAYOUT.minimumWithdrawalEur)} to request a withdrawal. Your
            balance is {formatEur(centsToDecimal(balanceCents))}.
          </Text>
        </Stack>
      </Paper>
    );
  }

  const set = (key: keyof WithdrawalInput) => (value: string) => {
    setInput((i) => ({ ...i, [key]: value }));
    if (field === key) {
      setError(null);
      setField(null);
    }
  };

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (inFlight.current) return;
    const check = checkWithdrawal(input, balanceCents);
    if (!check.ok) {
      setError(check.message);
      setField(check.field);
      return;
    }
    inFlight.current = true;
    setBusy(true);
    setError(null);
    setField(null);
    try {
      await requestWithdrawal({
        amount: check.amount,
        method: check.method,
        details: check.details,
      });
      toast.success(WITHDRAWAL_MESSAGES.success);
      onRequested();
    } catch (err) {
      setError(err instanceof Error && err.message ? err.message : WITHDRAWAL_FALLBACK);
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  }

  const invalid = (key: keyof WithdrawalInput) => (field === key ? true : undefined);
  return (
    <Paper
      withBorder
      radius="md"
      p={{ base: 'sm', sm: 'md' }}
      bg="dark.7"
      component="section"
      aria-labelledby="withdraw-title"
    >
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Stack gap="sm">
          <Title order={2} size="h4" id="withdraw-title">
            Request a withdrawal
          </Title>
          <TextInput
            label="Amount (EUR)"
            inputMode="decimal"
            value={input.amount}
            onChange={(e) => set('amount')(e.currentTarget.value)}
            error={invalid('amount')}
            description={`Minimum ${formatEur(PAYOUT.minimumWithdrawalEur)}, at most ${formatEur(centsToDecimal(balanceCents))}`}
            required
          />
          <SegmentedControl
            value={input.method}
            onChange={(v) => {
              setInput((i) => ({ ...i, method: v as WithdrawalMethod }));
              setError(null);
              setField(null);
            }}
            data={[
              { value: 'paypal', label: 'PayPal' },
              { value: 'bank', label: 'Bank transfer' },
            ]}
            aria-label="Payout method"
          />
          {input.method === 'paypal' ? (
            <TextInput
              label="PayPal email"
              type="email"
              autoComplete="email"
              value={input.paypalEmail}
              onChange={(e) => set('paypalEmail')(e.currentTarget.value)}
              error={invalid('paypalEmail')}
              required
            />
          ) : (
            <>
              <TextInput
                label="Account name"
                autoComplete="name"
                value={input.accountName}
                onChange={(e) => set('accountName')(e.currentTarget.value)}
                error={invalid('accountName')}
                required
              />
              <TextInput
                label="IBAN"
                value={input.iban}
                onChange={(e) => set('iban')(e.currentTarget.value)}
                error={invalid('iban')}
                required
              />
              <TextInput
                label="SWIFT/BIC"
                value={input.swift}
                onChange={(e) => set('swift')(e.currentTarget.value)}
                error={invalid('swift')}
                required
              />
            </>
          )}
          {error && (
            <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert" p="xs">
              {error}
            </Alert>
          )}
          <Button type="submit" loading={busy} leftSection={<IconWallet size={18} />}>
            Request Withdrawal
          </Button>
          <Text size="xs" c="dimmed">
            Paid by PayPal or bank transfer within {PAYOUT.businessDays} business days.
          </Text>
        </Stack>
      </form>
    </Paper>
  );
}
