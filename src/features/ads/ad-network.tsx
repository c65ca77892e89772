import { useEffect } from 'react';
import { AD_CHECK_INTERVAL_MS } from './ad-rules';
import { isSubstantialContent } from './content-check';

/** Marks the one script element this module adds. */
const MARK = 'data-soundloft-ad-network';

export interface AdNetworkProps {
  /** The configured script (ad-network-config.ts). */
  scriptUrl: string;
  /** The signed-in user's plan is free. */
  free: boolean;
  /** The page's main element, whose content must be substantial (spec 9). */
  mainId?: string;
  /** How the page starts over when third-party code must go (tests pass their own). */
  reload?: () => void;
}

/** Adds the network's script to the document once; an existing one is reused. */
export function insertAdNetworkScript(url: string, doc: Document = document): HTMLScriptElement {
  const existing = doc.querySelector<HTMLScriptElement>(`script[${MARK}]`);
  if (existing) return existing;
  const script = doc.createElement('script');
  script.src = url;
  script.async = true;
  script.crossOrigin = 'anonymous';
  script.setAttribute(MARK, '');
  // Blocked by an ad blocker or offline: the page and the house ads carry on without it.
  script.addEventListener('error', () =>
    console.warn('[ads] the ad network script did not load; house ads only'),
  );
  doc.head.append(script);
  return script;
}

const networkLoaded = (doc: Document = document) => doc.querySelector(`script[${MARK}]`) !== null;

let mounted = 0;
const reloadPage = () => window.location.reload();

/**
 * The configured ad network for the free plan (DECISIONS.md; docs/payments.md). Its script is
 * requested only for a free plan, only once the page's content is substantial by the same check
 * as the house ads (every second), and only once per page. A script cannot be unloaded: if the
 * plan stops being free, or the user signs out, after it was added, the page reloads, so that no
 * network code (nor what it placed) stays for a paid plan or a signed-out visitor.
 */
export default function AdNetwork({
  scriptUrl,
  free,
  mainId = 'main',
  reload = reloadPage,
}: AdNetworkProps) {
  useEffect(() => {
    if (!free) {
      if (networkLoaded()) reload();
      return;
    }
    if (networkLoaded()) return;
    const timer = window.setInterval(() => {
      const main = document.getElementById(mainId);
      if (!main || !isSubstantialContent(main)) return;
      insertAdNetworkScript(scriptUrl);
      window.clearInterval(timer);
    }, AD_CHECK_INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, [free, scriptUrl, mainId, reload]);

  // Unmounted for good (sign-out) after the script was added: start over without it. Checked a
  // tick later, so a remount of the same frame (React's StrictMode) is not a departure.
  useEffect(() => {
    mounted += 1;
    return () => {
      mounted -= 1;
      window.setTimeout(() => {
        if (mounted === 0 && networkLoaded()) reload();
      }, 0);
    };
  }, [reload]);

  return null;
}
