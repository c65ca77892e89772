/**
 * The token of an e-mailed action link (docs/trust-and-safety.md § Action links): it travels in
 * the URL's fragment (`#t=<64 hex>`), which browsers never send to a server or in a Referer.
 */
export function linkTokenFromHash(hash: string): string | undefined {
  return /^#t=([0-9a-f]{64})$/.exec(hash)?.[1];
}

/** The current page's link token (undefined outside a browser or without one). */
export function currentLinkToken(): string | undefined {
  return typeof window === 'undefined' ? undefined : linkTokenFromHash(window.location.hash);
}
