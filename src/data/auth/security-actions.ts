/**
 * Two-factor sign-in (GoTrue's MFA API: enroll, challengeAndVerify, unenroll), recovery codes and
 * the signed-in devices (RPCs of 20261130050000_account_security.sql). docs/account.md.
 */
import { getSupabase } from '../remote/client';

function fail(error: { message?: string } | null | undefined, fallback: string): never {
  throw new Error(error?.message || fallback);
}

export interface TotpEnrolment {
  factorId: string;
  /** The base32 secret, for typing into an authenticator app. */
  secret: string;
  /** The otpauth:// URI the QR code encodes. */
  uri: string;
}

/** The verified TOTP factor's id, or null when two-factor sign-in is off. */
export async function verifiedTotpFactor(): Promise<string | null> {
  const client = await getSupabase();
  const { data, error } = await client.auth.mfa.listFactors();
  if (error) fail(error, 'Failed to load two-factor settings');
  return data.totp.find((f) => f.status === 'verified')?.id ?? null;
}

/** Starts an enrolment (an abandoned earlier one is removed first: it was never verified). */
export async function startTotpEnrolment(): Promise<TotpEnrolment> {
  const client = await getSupabase();
  const { data: factors } = await client.auth.mfa.listFactors();
  for (const f of factors?.all ?? [])
    if (f.factor_type === 'totp' && f.status === 'unverified')
      await client.auth.mfa.unenroll({ factorId: f.id });
  const { data, error } = await client.auth.mfa.enroll({
    factorType: 'totp',
    friendlyName: 'Authenticator app',
  });
  if (error || data?.type !== 'totp') fail(error, 'Failed to start two-factor setup');
  return { factorId: data.id, secret: data.totp.secret, uri: data.totp.uri };
}

/** Verifies a six-digit code of `factorId`: the session becomes aal2. */
export async function verifyTotpCode(factorId: string, code: string): Promise<void> {
  const client = await getSupabase();
  const { error } = await client.auth.mfa.challengeAndVerify({ factorId, code: code.trim() });
  if (error) fail(error, 'Invalid code');
}

/** The second step of a sign-in: the code of the account's verified factor. */
export async function completeTwoFactorSignIn(code: string): Promise<void> {
  const factorId = await verifiedTotpFactor();
  if (!factorId) throw new Error('Two-factor sign-in is not set up for this account');
  await verifyTotpCode(factorId, code);
}

/** New recovery codes (the old ones stop working); shown once, stored hashed. Needs aal2. */
export async function createRecoveryCodes(): Promise<string[]> {
  const client = await getSupabase();
  const { data, error } = await client.rpc('create_mfa_recovery_codes');
  if (error) fail(error, 'Failed to create recovery codes');
  return data;
}

export async function recoveryCodesLeft(): Promise<number> {
  const client = await getSupabase();
  const { data, error } = await client.rpc('mfa_recovery_codes_left');
  if (error) fail(error, 'Failed to load recovery codes');
  return data;
}

/**
 * Signs in with a recovery code instead of the second factor: a right code turns two-factor
 * sign-in off (set it up again in Settings) and the session is refreshed without the factor.
 */
export async function signInWithRecoveryCode(code: string): Promise<void> {
  const client = await getSupabase();
  const { data, error } = await client.rpc('use_mfa_recovery_code', { p_code: code });
  if (error) fail(error, 'Failed to check the recovery code');
  if (!data) throw new Error('That recovery code is not valid');
  const refreshed = await client.auth.refreshSession();
  if (refreshed.error) fail(refreshed.error, 'Failed to sign in');
}

/** Turns two-factor sign-in off (GoTrue requires an aal2 session). */
export async function turnOffTwoFactor(factorId: string): Promise<void> {
  const client = await getSupabase();
  const { error } = await client.auth.mfa.unenroll({ factorId });
  if (error) fail(error, 'Failed to turn off two-factor sign-in');
  await client.auth.refreshSession();
}

export interface DeviceSession {
  id: string;
  userAgent: string | null;
  network: string | null;
  /** ISO 3166-1 alpha-2 country of the address at sign-in or last refresh; null when unknown. */
  country: string | null;
  createdAt: string;
  lastActiveAt: string;
  twoFactor: boolean;
  current: boolean;
}

export async function listSessions(): Promise<DeviceSession[]> {
  const client = await getSupabase();
  const { data, error } = await client.rpc('my_sessions');
  if (error) fail(error, 'Failed to load your devices');
  // The generated types do not describe a `returns table` function: its row, as the SQL says.
  const rows = data as {
    id: string;
    user_agent: string | null;
    network: string | null;
    country: string | null;
    created_at: string;
    last_active_at: string;
    two_factor: boolean;
    current: boolean;
  }[];
  return rows.map((r) => ({
    id: r.id,
    userAgent: r.user_agent,
    network: r.network,
    country: r.country,
    createdAt: r.created_at,
    lastActiveAt: r.last_active_at,
    twoFactor: r.two_factor,
    current: r.current,
  }));
}

export async function endSession(id: string): Promise<void> {
  const client = await getSupabase();
  const { error } = await client.rpc('end_my_session', { p_session: id });
  if (error) fail(error, 'Failed to sign out that device');
}
