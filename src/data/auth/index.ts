export {
  login,
  logout,
  resetPassword,
  setNewPassword,
  signInWithGoogle,
  signup,
} from './auth-actions';
export type { AuthState, AuthStatus } from './auth-store';
export {
  useAuth,
  useAuthSelector,
  useAuthStatus,
  useSessionUser,
  useSessionUserId,
} from './use-auth';
export {
  changeEmail,
  changePassword,
  requestReauthentication,
  signOutOtherSessions,
  type PasswordChange,
} from './account-actions';
export {
  completeTwoFactorSignIn,
  createRecoveryCodes,
  endSession,
  listSessions,
  recoveryCodesLeft,
  signInWithRecoveryCode,
  startTotpEnrolment,
  turnOffTwoFactor,
  verifiedTotpFactor,
  verifyTotpCode,
  type DeviceSession,
  type TotpEnrolment,
} from './security-actions';
