/**
 * The part every copyright form shares (the notice, the counter-notice, the claimant's legal
 * action): the fields a form passes in, then the statements to confirm, the typed signature, the
 * server's refusal and the submit button. The statements are checked here only to name what is
 * missing; the server checks them again (docs/trust-and-safety.md).
 */
import { Alert, Button, Checkbox, Paper, Stack, TextInput } from '@mantine/core';
import { useState, type FormEvent, type ReactNode } from 'react';

export interface Statement {
  key: string;
  label: string;
}

export function SignedForm({
  label,
  statements,
  missingStatements,
  submitLabel,
  onSubmit,
  children,
}: {
  /** The form's accessible name. */
  label: string;
  statements: Statement[];
  /** Shown when a statement is not confirmed. */
  missingStatements: string;
  submitLabel: string;
  /** Sends the form; `field(name)` is a named field's trimmed value (`signature` included). */
  onSubmit: (field: (name: string) => string) => Promise<void>;
  children: ReactNode;
}) {
  const [confirmed, setConfirmed] = useState<Record<string, boolean>>({});
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const field = (name: string) => String(form.get(name) ?? '').trim();
    if (statements.some((s) => !confirmed[s.key])) {
      setError(missingStatements);
      return;
    }
    setSending(true);
    setError(null);
    try {
      await onSubmit(field);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setSending(false);
    }
  };

  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }} radius="md">
      <form onSubmit={(e) => void submit(e)} aria-label={label} noValidate>
        <Stack gap="sm">
          {children}
          {statements.map((s) => (
            <Checkbox
              key={s.key}
              checked={confirmed[s.key] ?? false}
              onChange={(e) => {
                const checked = e.currentTarget.checked;
                setConfirmed((c) => ({ ...c, [s.key]: checked }));
              }}
              label={s.label}
            />
          ))}
          <TextInput
            name="signature"
            label="Signature"
            description="Type your full name."
            required
          />
          {error ? (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          ) : null}
          <Button type="submit" loading={sending}>
            {submitLabel}
          </Button>
        </Stack>
      </form>
    </Paper>
  );
}
