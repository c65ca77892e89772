import { Fieldset } from '@mantine/core';
import type { FormEvent, ReactNode } from 'react';
import { useHydrated } from '@/lib/use-hydrated';

export interface AuthFormProps {
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  children: ReactNode;
}

/**
 * The form of a prerendered auth page (docs/auth.md, "Prerendered auth pages"). Until React has
 * hydrated the page its fields and button are disabled (one `<fieldset disabled>`): nobody can
 * type a password into a form that has no handler yet, the disabled default button makes
 * Enter do nothing, and a disabled field is never part of a submission. `method="post"` is a
 * second guard: were the form ever sent natively, nothing would land in the address, history or
 * server logs.
 */
export function AuthForm({ onSubmit, children }: AuthFormProps) {
  const hydrated = useHydrated();
  return (
    <form method="post" onSubmit={onSubmit} noValidate>
      <Fieldset variant="unstyled" m={0} disabled={!hydrated}>
        {children}
      </Fieldset>
    </form>
  );
}
