import { describe, expect, it } from 'vitest';
import { cspHash, inlineScriptHashes, inlineScripts } from '../build/inline-scripts';
import { contentSecurityPolicy, pageSecurityHeaders } from './security-headers';

const directive = (csp: string, name: string) =>
  new RegExp(`(?:^|; )${name} ([^;]*)`).exec(csp)?.[1] ?? null;

describe('the Content-Security-Policy', () => {
  it('allows no inline script, no plugin, no framing, by default', () => {
    const csp = contentSecurityPolicy({ stripe: false });
    expect(directive(csp, 'script-src')).toBe("'self'");
    expect(directive(csp, 'connect-src')).toBe("'self'");
    expect(directive(csp, 'object-src')).toBe("'none'");
    expect(directive(csp, 'frame-ancestors')).toBe("'none'");
    expect(directive(csp, 'frame-src')).toBe("'none'");
    expect(directive(csp, 'base-uri')).toBe("'self'");
  });

  it("adds the backend's origin when the app talks to another one (dev: localhost vs 127.0.0.1)", () => {
    const csp = contentSecurityPolicy({ stripe: false, backendUrl: 'http://localhost:8787' });
    expect(directive(csp, 'connect-src')).toBe("'self' http://localhost:8787 ws://localhost:8787");
    expect(directive(csp, 'media-src')).toContain('http://localhost:8787');
    const hosted = contentSecurityPolicy({ stripe: false, backendUrl: 'https://x.supabase.co' });
    expect(directive(hosted, 'connect-src')).toBe(
      "'self' https://x.supabase.co wss://x.supabase.co",
    );
  });

  it("adds Stripe's origins with real Stripe, and only an https ad script", () => {
    const csp = contentSecurityPolicy({
      stripe: true,
      adScriptUrl: 'https://ads.example/tag.js',
    });
    expect(directive(csp, 'script-src')).toBe(
      "'self' https://js.stripe.com https://*.js.stripe.com https://ads.example",
    );
    expect(directive(csp, 'connect-src')).toBe("'self' https://api.stripe.com");
    expect(directive(csp, 'frame-src')).toContain('https://hooks.stripe.com');
    const http = contentSecurityPolicy({ stripe: false, adScriptUrl: 'http://ads.example/t.js' });
    expect(directive(http, 'script-src')).toBe("'self'");
  });

  it('sends HSTS only for an https PUBLIC_URL, and Stripe only when payments are on', () => {
    expect(pageSecurityHeaders({})['Strict-Transport-Security']).toBeUndefined();
    const https = pageSecurityHeaders({ PUBLIC_URL: 'https://soundloft.example' });
    expect(https['Strict-Transport-Security']).toBe('max-age=31536000; includeSubDomains');
    const off = pageSecurityHeaders({ STRIPE_SECRET_KEY: 'sk_live_x', PAYMENTS: 'off' });
    expect(off['Content-Security-Policy']).not.toContain('stripe');
  });

  it('hashes the inline scripts of built pages (the sha256 of the exact text)', () => {
    const page = '<script type="module" src="/a.js"></script><script>alert(1)</script>';
    expect(inlineScripts(page)).toEqual(['alert(1)']);
    // echo -n 'alert(1)' | openssl dgst -sha256 -binary | base64
    expect(cspHash('alert(1)')).toBe("'sha256-bhHHL3z2vDgxUt0W3dWQOrprscmda2Y5pLsLg4GF+pI='");
    expect(inlineScriptHashes([page, page])).toHaveLength(1);
  });
});
