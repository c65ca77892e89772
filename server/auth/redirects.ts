/**
 * Where an auth flow sends the browser back to, decided as GoTrue decides it
 * (supabase/auth internal/utilities/request.go: GetReferrer and IsRedirectURLValid):
 * the request's `redirect_to` (header, else query string) when it is allowed, else the
 * `Referer` when it is allowed, else the site URL.
 */
import type { Context } from 'hono';
import type { AuthConfig } from './config';

/** Hostnames whose port is not compared (RFC 8252 §7.3: native apps use any loopback port). */
function isLocalhost(hostname: string): boolean {
  const h = hostname.toLowerCase();
  return ['localhost', '127.0.0.1', '::1', '0.0.0.0', '::'].includes(h) || h.endsWith('.localhost');
}

interface RawUrl {
  scheme: string;
  hostname: string;
  port: string;
}

/**
 * Scheme, hostname and port as written, the way Go's url.Parse keeps them: WHATWG URL rewrites
 * `http://2130706433/` to `127.0.0.1`, and GoTrue refuses the decimal form.
 */
function rawParts(value: string): RawUrl | null {
  try {
    new URL(value);
  } catch {
    return null;
  }
  const m =
    /^([a-zA-Z][a-zA-Z0-9+.-]*):(?:\/\/(?:[^@/?#]*@)?(\[[^\]]*\]|[^:/?#]*)(?::([^/?#]*))?)?/.exec(
      value,
    );
  if (!m) return null;
  const host = m[2] ?? '';
  return {
    scheme: (m[1] ?? '').toLowerCase(),
    hostname: host.startsWith('[') ? host.slice(1, -1) : host,
    port: m[3] ?? '',
  };
}

function isIpv4(host: string): boolean {
  const parts = host.split('.');
  return parts.length === 4 && parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255);
}

/** An IP literal (Go's net.ParseIP): loopback or not; null when `host` is no IP address. */
function ipLoopback(host: string): boolean | null {
  if (isIpv4(host)) return host.startsWith('127.');
  if (host.includes(':')) {
    try {
      const h = new URL(`http://[${host}]/`).hostname;
      return h === '[::1]' || /^\[::ffff:7f[0-9a-f]{2}:/.test(h);
    } catch {
      return null;
    }
  }
  return null;
}

/**
 * Compiles an allow-list pattern as gobwas/glob does with the separators `.` and `/` (GoTrue's
 * `glob.MustCompile(uri, '.', '/')`): `*` any run without a separator, `**` any run, `?` one
 * character that is not a separator, `[abc]`/`[a-z]`/`[!abc]` classes, `{a,b}` alternatives,
 * `\` escapes. No JavaScript glob library treats `.` as a separator, hence this small compiler.
 */
export function compileAllowPattern(pattern: string): RegExp {
  let i = 0;
  const escape = (ch: string) => ch.replace(/[.+?^${}()|[\]\\*/-]/g, '\\$&');
  const parse = (inAlternative: boolean): string => {
    let out = '';
    while (i < pattern.length) {
      const ch = pattern[i] as string;
      if (inAlternative && (ch === ',' || ch === '}')) return out;
      i++;
      if (ch === '\\' && i < pattern.length) out += escape(pattern[i++] as string);
      else if (ch === '*') {
        if (pattern[i] === '*') {
          i++;
          out += '.*';
        } else out += '[^./]*';
      } else if (ch === '?') out += '[^./]';
      else if (ch === '[') {
        const end = pattern.indexOf(']', i);
        if (end < 0) {
          out += '\\[';
          continue;
        }
        let body = pattern.slice(i, end);
        i = end + 1;
        const negate = body.startsWith('!');
        if (negate) body = body.slice(1);
        out += `[${negate ? '^' : ''}${body.replace(/[\\\]^]/g, '\\$&')}]`;
      } else if (ch === '{') {
        const options: string[] = [];
        for (;;) {
          options.push(parse(true));
          const stop = pattern[i++];
          if (stop !== ',') break;
        }
        out += `(?:${options.join('|')})`;
      } else out += escape(ch);
    }
    return out;
  };
  return new RegExp(`^${parse(false)}$`, 's');
}

const DECIMAL_HOST = /^[0-9]+$/;
const REGULAR_HOST = /^[a-zA-Z0-9]([a-zA-Z0-9.-]*[a-zA-Z0-9])?$/;

/** GoTrue's IsRedirectURLValid. */
export function isRedirectUrlValid(config: AuthConfig, redirectUrl: string | undefined): boolean {
  if (!redirectUrl) return false;
  const base = rawParts(config.siteUrl);
  const ref = rawParts(redirectUrl);
  if (!base || !ref) return false;
  // Back to the site: scheme, host and port match (any port on a loopback host).
  if (
    base.hostname === ref.hostname &&
    base.scheme === ref.scheme &&
    (base.port === ref.port || isLocalhost(ref.hostname))
  )
    return true;
  const isHttp = ref.scheme === 'http' || ref.scheme === 'https';
  if (DECIMAL_HOST.test(ref.hostname)) return false;
  const loopback = ipLoopback(ref.hostname);
  if (loopback !== null) return loopback;
  if (isHttp && !REGULAR_HOST.test(ref.hostname)) return false;
  const withoutFragment = redirectUrl.split('#')[0] ?? '';
  return config.additionalRedirectUrls.some((p) => compileAllowPattern(p).test(withoutFragment));
}

/**
 * GoTrue's GetReferrer: `redirect_to` from the header or the query string, then `body` (the
 * admin generate_link body's `redirect_to`, which GoTrue prefers when valid), then the
 * `Referer` header; the first allowed one wins, else the site URL.
 */
export function requestReferrer(c: Context, config: AuthConfig, bodyRedirect?: string): string {
  if (isRedirectUrlValid(config, bodyRedirect)) return bodyRedirect as string;
  const requested = c.req.header('redirect_to') || c.req.query('redirect_to');
  if (isRedirectUrlValid(config, requested)) return requested as string;
  const referer = c.req.header('referer');
  if (isRedirectUrlValid(config, referer)) return referer as string;
  return config.siteUrl;
}
