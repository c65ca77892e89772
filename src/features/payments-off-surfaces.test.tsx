/**
 * Every surface that offers a paid upgrade follows the server's `payments-status` (docs/
 * production.md "Payments off"): while unknown none offers one, with payments on each does, with
 * PAYMENTS=off none does and the download prompt and upload limits give the server's notice. The
 * shared status is the test's (src/data/payments-status.test.tsx tests the store itself).
 */
import { MantineProvider } from '@mantine/core';
import { render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { PaymentsStatus } from '@/data/payments-status';
import { UpgradeOffer } from '@/features/catalogue/upgrade-offer';
import HouseAds from '@/features/ads/house-ads';
import { DownloadUpgradePrompt } from '@/features/catalogue/download-upgrade-prompt';
import { HomeStats } from '@/features/home/home-stats';
import { UploadLimitsPanel } from '@/features/upload/components/upload-limits-panel';
import { LIMIT_REACHED, uploadLimits } from '@/features/upload/upload-rules';

const NOTICE = 'Paid plans are not available on this server right now.';
const UNKNOWN: PaymentsStatus = { known: false, offersUpgrades: false, notice: null };
const ON: PaymentsStatus = { known: true, offersUpgrades: true, notice: null };
const OFF: PaymentsStatus = { known: true, offersUpgrades: false, notice: NOTICE };

const state = vi.hoisted(() => ({ payments: null as unknown as PaymentsStatus }));

vi.mock('@/data/payments-status', () => ({ usePaymentsStatus: () => state.payments }));
vi.mock('@/data', () => ({
  PREMIUM_ONLY_MESSAGE: 'Downloads are part of Premium. Upgrade to listen offline.',
  useMirrorLoading: () => false,
  useProfileOrLoading: () => ({ subscriptionPlan: 'free' }),
  useUploadCount: () => 0,
  useLikeCount: () => 0,
  usePlaylistCount: () => 0,
  useRecentTracks: () => [],
}));
vi.mock('@/components/router-links', () => ({
  ButtonLink: ({ to, children }: { to: string; children: ReactNode }) => (
    <a href={to}>{children}</a>
  ),
}));

const wrap = (ui: ReactNode) => render(<MantineProvider>{ui}</MantineProvider>);
/** Every link to /subscription in the document, hidden ones included. */
const upgradeLinks = () => [...document.querySelectorAll('a[href="/subscription"]')];

beforeEach(() => {
  state.payments = UNKNOWN;
});

describe('the home upgrade banner (free plan)', () => {
  it('holds its place, hidden, while payments are unknown', () => {
    wrap(<HomeStats userId="me" />);
    expect(screen.queryByRole('region', { name: 'Go ad-free with Premium' })).toBeNull();
    expect(upgradeLinks()).toHaveLength(2); // inside the inert, aria-hidden placeholder
    expect(upgradeLinks().every((a) => a.closest('[inert]') !== null)).toBe(true);
  });
  it('offers Premium when the server sells plans', () => {
    state.payments = ON;
    wrap(<HomeStats userId="me" />);
    expect(screen.getByRole('region', { name: 'Go ad-free with Premium' })).toBeTruthy();
    expect(upgradeLinks().every((a) => a.closest('[inert]') === null)).toBe(true);
    expect(upgradeLinks().map((a) => a.textContent)).toEqual(['View Plans', 'Upgrade Now']);
  });
  it('is absent with PAYMENTS=off', () => {
    state.payments = OFF;
    wrap(<HomeStats userId="me" />);
    expect(screen.queryByText('Go ad-free with Premium')).toBeNull();
    expect(upgradeLinks()).toHaveLength(0);
  });
});

describe('the house ads (free plan)', () => {
  const page = (ads: ReactNode) => (
    <main id="main">
      <p>{'A page with plenty of text, so that its content is substantial. '.repeat(6)}</p>
      {ads}
    </main>
  );
  it('sell Premium when the server sells plans', async () => {
    state.payments = ON;
    wrap(page(<HouseAds />));
    await waitFor(() => expect(screen.getByText('See plans')).toBeTruthy());
  });
  it('are not shown while unknown or with PAYMENTS=off', async () => {
    for (const payments of [UNKNOWN, OFF]) {
      state.payments = payments;
      const view = wrap(page(<HouseAds />));
      // The banner would be there on the first check (the test above): give it that check.
      await new Promise((r) => setTimeout(r, 0));
      expect(document.querySelector('[data-house-ad]')).toBeNull();
      expect(upgradeLinks()).toHaveLength(0);
      view.unmount();
    }
  });
});

describe('the download prompt', () => {
  it('offers Premium when the server sells plans', () => {
    state.payments = ON;
    wrap(<DownloadUpgradePrompt opened onClose={() => {}} />);
    expect(
      screen.getByText('Downloads are part of Premium. Upgrade to listen offline.'),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Upgrade to Premium' }).getAttribute('href')).toBe(
      '/subscription',
    );
  });
  it('with PAYMENTS=off says downloads are Premium and upgrades are unavailable', () => {
    state.payments = OFF;
    wrap(<DownloadUpgradePrompt opened onClose={() => {}} />);
    const dialog = screen.getByRole('dialog', { name: 'Listen offline' });
    expect(dialog.textContent).toContain(`Downloads are part of Premium. ${NOTICE}`);
    expect(screen.getByTestId('payments-off-notice').textContent).toBe(NOTICE);
    expect(upgradeLinks()).toHaveLength(0);
    expect(screen.getByRole('button', { name: 'Close' })).toBeTruthy();
  });
  it('offers nothing while unknown', () => {
    wrap(<DownloadUpgradePrompt opened onClose={() => {}} />);
    expect(screen.getByText('Downloads are part of Premium.')).toBeTruthy();
    expect(upgradeLinks()).toHaveLength(0);
  });
});

describe('the upload limits', () => {
  const atLimit = uploadLimits('free', 1_000);
  const below = uploadLimits('free', 0);
  it('link to the plans when the server sells them', () => {
    state.payments = ON;
    wrap(<UploadLimitsPanel limits={atLimit} />);
    expect(screen.getByRole('link', { name: 'View plans' })).toBeTruthy();
    wrap(<UploadLimitsPanel limits={below} />);
    expect(screen.getByRole('link', { name: 'Compare plans' })).toBeTruthy();
  });
  it('with PAYMENTS=off give the notice at the limit and no link', () => {
    state.payments = OFF;
    wrap(<UploadLimitsPanel limits={atLimit} />);
    expect(screen.getByText(LIMIT_REACHED)).toBeTruthy();
    expect(screen.getByTestId('payments-off-notice').textContent).toBe(NOTICE);
    wrap(<UploadLimitsPanel limits={below} />);
    expect(upgradeLinks()).toHaveLength(0);
    expect(screen.queryByText(/Need more/)).toBeNull();
  });
  it('offer nothing while unknown', () => {
    render(
      <MantineProvider>
        <UpgradeOffer>
          <a href="/subscription">View plans</a>
        </UpgradeOffer>
      </MantineProvider>,
    );
    expect(upgradeLinks()).toHaveLength(0);
    expect(screen.queryByTestId('payments-off-notice')).toBeNull();
  });
});
