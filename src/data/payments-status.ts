/**
 * Whether this server sells paid plans (`payments-status`, docs/production.md "Payments off"),
 * read once per page load and shared by every surface that offers an upgrade: the home banner,
 * the house ads, the download prompt, the upload limits and /subscription.
 *
 * While the answer is unknown no surface offers an upgrade (`offersUpgrades` is false), so a
 * server with PAYMENTS=off never flashes one; the home banner holds its place meanwhile. If the
 * server cannot be asked (offline, an error), upgrades are offered as before the check existed:
 * /subscription then reports its own error at checkout, and the next surface to mount asks again.
 */
import { useSyncExternalStore } from 'react';
import { fetchPaymentsStatus } from './remote/payments-remote';

export interface PaymentsStatus {
  /** The server has answered, or could not be asked. */
  known: boolean;
  /** Paid upgrades may be offered: only once the server has said it sells them. */
  offersUpgrades: boolean;
  /** The server's notice when it sells no plans ('Paid plans are not available …'). */
  notice: string | null;
}

export const PAYMENTS_STATUS_UNKNOWN: PaymentsStatus = {
  known: false,
  offersUpgrades: false,
  notice: null,
};

/** The notice when the server says it sells nothing but gives no text (it always does today). */
export const PAYMENTS_OFF_FALLBACK = 'Paid plans are not available on this server right now.';

type Fetcher = () => Promise<{ enabled: boolean; notice: string | null }>;

export interface PaymentsStatusStore {
  subscribe(listener: () => void): () => void;
  getSnapshot(): PaymentsStatus;
}

/** A store that asks `fetcher` on its first subscriber, caches the answer and shares it. */
export function createPaymentsStatusStore(fetcher: Fetcher): PaymentsStatusStore {
  let snapshot = PAYMENTS_STATUS_UNKNOWN;
  let asking = false;
  let answered = false;
  const listeners = new Set<() => void>();
  const set = (next: PaymentsStatus) => {
    snapshot = next;
    for (const listener of listeners) listener();
  };
  const ask = () => {
    if (asking || answered) return;
    asking = true;
    fetcher()
      .then((status) => {
        answered = true;
        set(
          status.enabled
            ? { known: true, offersUpgrades: true, notice: null }
            : {
                known: true,
                offersUpgrades: false,
                notice: status.notice ?? PAYMENTS_OFF_FALLBACK,
              },
        );
      })
      .catch((error: unknown) => {
        console.warn('[payments] status unknown, upgrades stay offered', error);
        set({ known: true, offersUpgrades: true, notice: null });
      })
      .finally(() => {
        asking = false;
      });
  };
  return {
    subscribe(listener) {
      listeners.add(listener);
      ask();
      return () => listeners.delete(listener);
    },
    getSnapshot: () => snapshot,
  };
}

export const paymentsStatusStore = createPaymentsStatusStore(fetchPaymentsStatus);

/** The server's payments status, asked once per page load (see the module's comment). */
export function usePaymentsStatus(
  store: PaymentsStatusStore = paymentsStatusStore,
): PaymentsStatus {
  return useSyncExternalStore(store.subscribe, store.getSnapshot, () => PAYMENTS_STATUS_UNKNOWN);
}
