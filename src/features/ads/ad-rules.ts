/**
 * When the pop-up opens (spec 4, 9): after 30 s if the content is substantial by then (else
 * rechecked every 2 s while the page is loading and every 5 s until it is), on scrolling past
 * half of the page, or on exit intent (the pointer leaving through the top) once the reader
 * scrolled more than 100 px. The ad check (is the content substantial?) runs every second.
 */
export const AD_CHECK_INTERVAL_MS = 1000;
export const POPUP_DELAY_MS = 30_000;
export const RECHECK_LOADING_MS = 2000;
export const RECHECK_WAITING_MS = 5000;
export const SCROLL_FRACTION = 0.5;
export const EXIT_INTENT_MIN_SCROLL_PX = 100;

/** The delay before the timer looks again when the content is not enough yet. */
export function recheckDelay(loading: boolean): number {
  return loading ? RECHECK_LOADING_MS : RECHECK_WAITING_MS;
}

export function scrolledPastHalf(el: {
  scrollTop: number;
  scrollHeight: number;
  clientHeight: number;
}): boolean {
  const range = el.scrollHeight - el.clientHeight;
  return range > 0 && el.scrollTop / range > SCROLL_FRACTION;
}

/**
 * Whether the reader is filling in a form: the focus is in a field or inside a `<form>`. The
 * pop-up waits then (its next trigger opens it): opened over a form's buttons it took the click
 * meant for 'Save changes' (seen in e2e, session 11).
 */
export function isEditing(active: Element | null): boolean {
  if (!active || active === active.ownerDocument.body) return false;
  if (active.closest('form')) return true;
  const tag = active.tagName;
  return (
    tag === 'INPUT' ||
    tag === 'TEXTAREA' ||
    tag === 'SELECT' ||
    (active instanceof HTMLElement && active.isContentEditable)
  );
}
