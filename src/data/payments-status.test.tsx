/**
 * The shared payments status (docs/production.md "Payments off"): unknown (no upgrade offered)
 * until the server answers, asked once however many surfaces read it, the server's notice when
 * it sells nothing, upgrades offered again when it cannot be asked (and asked again later).
 */
import { act, render, screen } from '@testing-library/react';
import { expect, it, vi } from 'vitest';
import {
  createPaymentsStatusStore,
  PAYMENTS_STATUS_UNKNOWN,
  usePaymentsStatus,
  type PaymentsStatusStore,
} from './payments-status';

const NOTICE = 'Paid plans are not available on this server right now.';

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

function Probe({ store, id }: { store: PaymentsStatusStore; id: string }) {
  const status = usePaymentsStatus(store);
  return <p data-testid={id}>{JSON.stringify(status)}</p>;
}

const shown = (id: string) => JSON.parse(screen.getByTestId(id).textContent ?? '') as unknown;

it('offers nothing while unknown, asks once for every reader, then follows the answer (on)', async () => {
  const answer = deferred<{ enabled: boolean; notice: string | null }>();
  const fetcher = vi.fn(() => answer.promise);
  const store = createPaymentsStatusStore(fetcher);
  render(
    <>
      <Probe store={store} id="a" />
      <Probe store={store} id="b" />
    </>,
  );
  expect(shown('a')).toEqual(PAYMENTS_STATUS_UNKNOWN);
  expect(shown('b')).toEqual({ known: false, offersUpgrades: false, notice: null });
  await act(async () => answer.resolve({ enabled: true, notice: null }));
  expect(shown('a')).toEqual({ known: true, offersUpgrades: true, notice: null });
  expect(shown('b')).toEqual({ known: true, offersUpgrades: true, notice: null });
  // A surface mounted later reads the cached answer: no second request.
  render(<Probe store={store} id="c" />);
  expect(shown('c')).toEqual({ known: true, offersUpgrades: true, notice: null });
  expect(fetcher).toHaveBeenCalledTimes(1);
});

it('PAYMENTS=off: no upgrade offered, the server notice (a default if it gives none)', async () => {
  const off = createPaymentsStatusStore(() => Promise.resolve({ enabled: false, notice: NOTICE }));
  render(<Probe store={off} id="off" />);
  await act(async () => {});
  expect(shown('off')).toEqual({ known: true, offersUpgrades: false, notice: NOTICE });

  const silent = createPaymentsStatusStore(() => Promise.resolve({ enabled: false, notice: null }));
  render(<Probe store={silent} id="silent" />);
  await act(async () => {});
  expect(shown('silent')).toEqual({ known: true, offersUpgrades: false, notice: NOTICE });
});

it('a failed request offers upgrades as before and is asked again by the next reader', async () => {
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
  const first = deferred<{ enabled: boolean; notice: string | null }>();
  const fetcher = vi
    .fn<() => Promise<{ enabled: boolean; notice: string | null }>>()
    .mockReturnValueOnce(first.promise)
    .mockResolvedValueOnce({ enabled: false, notice: NOTICE });
  const store = createPaymentsStatusStore(fetcher);
  const view = render(<Probe store={store} id="x" />);
  await act(async () => first.reject(new Error('offline')));
  expect(shown('x')).toEqual({ known: true, offersUpgrades: true, notice: null });
  expect(warn).toHaveBeenCalled();
  view.unmount();
  render(<Probe store={store} id="y" />);
  await act(async () => {});
  expect(fetcher).toHaveBeenCalledTimes(2);
  expect(shown('y')).toEqual({ known: true, offersUpgrades: false, notice: NOTICE });
  warn.mockRestore();
});
