/** bcrypt password hashes (GoTrue's `encrypted_password`), cost 10 unless a test lowers it. */
import bcrypt from 'bcryptjs';
import { unprocessable, weakPassword } from './errors';

/** A hash that no password matches, compared against when the user does not exist (timing). */
const DUMMY_HASH = '$2a$10$CwTycUXWue0Thq9StjUM0uJ8.ZpHcTHr6WDx3r9Q1F8g2mDq7kDxS';

export function validatePassword(password: string, minLength: number): void {
  if (password.length < minLength) throw weakPassword(minLength);
  if (Buffer.byteLength(password) > 72)
    throw unprocessable('validation_failed', 'Password cannot be longer than 72 characters');
}

export const hashPassword = (password: string, cost: number) => bcrypt.hash(password, cost);

/** Constant-ish time: a missing hash still costs one bcrypt comparison. */
export async function checkPassword(password: string, hash: string | null): Promise<boolean> {
  if (!hash || !hash.startsWith('$2')) {
    await bcrypt.compare(password, DUMMY_HASH);
    return false;
  }
  return bcrypt.compare(password, hash);
}
