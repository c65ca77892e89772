export {
  DEV_JWT_SECRET,
  KEY_ISSUER,
  JwtError,
  apiKey,
  createJwtVerifier,
  loadKeys,
  signHs256,
  userToken,
  verifyJwt,
} from './keys';
export type { JwtClaims, JwtFailure, Keys } from './keys';
