import { Alert, Button, Code, Group, List, Loader, Stack, Text, TextInput } from '@mantine/core';
import QRCode from 'qrcode';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { toast } from '@/components/toast';
import {
  createRecoveryCodes,
  startTotpEnrolment,
  turnOffTwoFactor,
  verifiedTotpFactor,
  verifyTotpCode,
  type TotpEnrolment,
} from '@/data/auth';

type View =
  | { kind: 'loading' }
  | { kind: 'error'; message: string }
  | { kind: 'off' }
  | { kind: 'enrolling'; enrolment: TotpEnrolment }
  | { kind: 'codes'; codes: string[] }
  | { kind: 'on'; factorId: string };

const message = (e: unknown, fallback: string) => (e instanceof Error ? e.message : fallback);

/**
 * Two-factor sign-in (docs/account.md): enrol with a QR code drawn here by the `qrcode` package
 * (a canvas: no remote image, nothing for the CSP to refuse) or the key typed by hand, confirm a
 * first code, then the recovery codes, shown once. Turning it off needs this session at aal2.
 */
export function TwoFactorCard() {
  const [view, setView] = useState<View>({ kind: 'loading' });
  const fetchState = () => {
    verifiedTotpFactor()
      .then((id) => setView(id ? { kind: 'on', factorId: id } : { kind: 'off' }))
      .catch((e: unknown) =>
        setView({ kind: 'error', message: message(e, 'Failed to load two-factor settings') }),
      );
  };
  useEffect(fetchState, []);
  const load = () => {
    setView({ kind: 'loading' });
    fetchState();
  };

  const start = () =>
    startTotpEnrolment()
      .then((enrolment) => setView({ kind: 'enrolling', enrolment }))
      .catch((e: unknown) => toast.error(message(e, 'Failed to start two-factor setup')));

  switch (view.kind) {
    case 'loading':
      return <Loader size="sm" aria-label="Loading two-factor settings" />;
    case 'error':
      return (
        <Alert color="red" role="alert">
          {view.message}{' '}
          <Button variant="subtle" size="xs" onClick={load}>
            Try again
          </Button>
        </Alert>
      );
    case 'off':
      return (
        <Stack gap="xs" align="flex-start">
          <Text size="sm">
            Two-factor sign-in is <strong>off</strong>. Turn it on to ask for a code from an
            authenticator app each time you sign in.
          </Text>
          <Button onClick={() => void start()}>Turn on two-factor sign-in</Button>
        </Stack>
      );
    case 'enrolling':
      return (
        <Enrol
          enrolment={view.enrolment}
          onCancel={load}
          onVerified={(codes) => setView({ kind: 'codes', codes })}
        />
      );
    case 'codes':
      return <RecoveryCodes codes={view.codes} onDone={load} />;
    case 'on':
      return (
        <Stack gap="xs" align="flex-start">
          <Text size="sm">
            Two-factor sign-in is <strong>on</strong>. You are asked for a code from your
            authenticator app when you sign in.
          </Text>
          <Group gap="sm">
            <Button
              variant="default"
              onClick={() =>
                void createRecoveryCodes()
                  .then((codes) => setView({ kind: 'codes', codes }))
                  .catch((e: unknown) => toast.error(message(e, 'Failed to create codes')))
              }
            >
              New recovery codes
            </Button>
            <Button
              color="red"
              variant="light"
              onClick={() =>
                void turnOffTwoFactor(view.factorId)
                  .then(() => {
                    toast.success('Two-factor sign-in is off');
                    load();
                  })
                  .catch((e: unknown) => toast.error(message(e, 'Failed to turn it off')))
              }
            >
              Turn off two-factor sign-in
            </Button>
          </Group>
        </Stack>
      );
  }
}

function Enrol(props: {
  enrolment: TotpEnrolment;
  onCancel: () => void;
  onVerified: (codes: string[]) => void;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (canvas.current)
      void QRCode.toCanvas(canvas.current, props.enrolment.uri, { width: 192, margin: 2 });
  }, [props.enrolment.uri]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!/^\d{6}$/.test(code.trim())) return setError('Enter the six-digit code from the app');
    setBusy(true);
    setError(null);
    verifyTotpCode(props.enrolment.factorId, code)
      .then(() => createRecoveryCodes())
      .then(props.onVerified)
      .catch((e: unknown) => {
        setError(message(e, 'Invalid code'));
        setBusy(false);
      });
  };

  return (
    <Stack gap="sm">
      <List type="ordered" size="sm" spacing={4}>
        <List.Item>
          Open an authenticator app (for example 1Password, Authy or Google Authenticator).
        </List.Item>
        <List.Item>Scan this QR code, or type the key below.</List.Item>
        <List.Item>Enter the six-digit code the app shows.</List.Item>
      </List>
      <canvas
        ref={canvas}
        role="img"
        aria-label="QR code to add Soundloft to your authenticator app"
        style={{ width: 192, height: 192, borderRadius: 8 }}
      />
      <Text size="sm">
        Key:{' '}
        <Code data-testid="totp-secret" style={{ wordBreak: 'break-all' }}>
          {props.enrolment.secret}
        </Code>
      </Text>
      <form onSubmit={submit} noValidate aria-label="Confirm two-factor code">
        <Group align="flex-start" gap="sm" wrap="wrap">
          <TextInput
            label="Code from the app"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            value={code}
            onChange={(e) => setCode(e.currentTarget.value)}
            error={error}
          />
          <Button type="submit" loading={busy} mt={25}>
            Confirm
          </Button>
          <Button variant="subtle" mt={25} onClick={props.onCancel}>
            Cancel
          </Button>
        </Group>
      </form>
    </Stack>
  );
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <Stack gap="sm">
      <Alert color="yellow" title="Save your recovery codes" role="status">
        Each code signs you in once if you lose your authenticator app, and then turns two-factor
        sign-in off. They are shown only now: keep them somewhere safe.
      </Alert>
      <List size="sm" aria-label="Recovery codes" data-testid="recovery-codes" listStyleType="none">
        {codes.map((c) => (
          <List.Item key={c}>
            <Code>{c}</Code>
          </List.Item>
        ))}
      </List>
      <Group gap="sm">
        <Button
          variant="default"
          onClick={() =>
            void navigator.clipboard
              .writeText(codes.join('\n'))
              .then(() => toast.success('Codes copied'))
              .catch(() => toast.error('Copy failed: select the codes instead'))
          }
        >
          Copy codes
        </Button>
        <Button onClick={onDone}>I saved them</Button>
      </Group>
    </Stack>
  );
}
