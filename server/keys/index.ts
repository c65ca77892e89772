export {
  DEV_JWT_SECRET,
  KEY_ISSUER,
  JwtError,
  apiKey,
  createJwtVerifier,
  loadKeys,
  signHs256,
  userToken,
  verificationSecrets,
  verifyJwt,
} from './keys';
export type { JwtClaims, JwtFailure, JwtSecrets, Keys } from './keys';
