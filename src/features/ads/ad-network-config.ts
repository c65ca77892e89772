/**
 * The ad network of the free plan, when one is configured (DECISIONS.md: house ads by default; a
 * network only when configured). `VITE_AD_NETWORK_SCRIPT_URL` is the network's script, read at
 * build time like the other VITE_ settings (docs/payments.md, "House ads"). Unset: no third-party
 * script is ever requested.
 */

/**
 * The configured script URL, or null. Only https (or http on localhost, for a development
 * stand-in) is accepted; anything else is ignored with a warning, never loaded.
 */
export function adNetworkScriptUrl(
  value: unknown = import.meta.env.VITE_AD_NETWORK_SCRIPT_URL,
): string | null {
  if (typeof value !== 'string' || value.trim() === '') return null;
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    console.warn('[ads] VITE_AD_NETWORK_SCRIPT_URL is not a URL: no ad network is used');
    return null;
  }
  const local = url.hostname === 'localhost' || url.hostname === '127.0.0.1';
  if (url.protocol === 'https:' || (url.protocol === 'http:' && local)) return url.href;
  console.warn('[ads] VITE_AD_NETWORK_SCRIPT_URL must be https: no ad network is used');
  return null;
}
