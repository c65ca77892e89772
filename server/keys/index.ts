export {
  DEV_JWT_SECRET,
  KEY_ISSUER,
  JwtError,
  createJwtVerifier,
  loadKeys,
  signHs256,
  verifyJwt,
} from './keys';
export type { JwtClaims, JwtFailure, Keys } from './keys';
