export { createAuthApp, GOTRUE_VERSION } from './app';
export type { AuthAppOptions } from './app';
export { loadAuthConfig } from './config';
export { isRedirectUrlValid } from './redirects';
export type { AuthConfig, AuthConfigOverrides } from './config';
export { DEV_IDP_CLIENT_ID } from './dev-idp';
