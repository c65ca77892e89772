import { renderHook } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';

const state = vi.hoisted(() => ({
  profile: undefined as { name: string; avatar: null; subscriptionPlan: string } | undefined,
}));
vi.mock('@/data/auth', () => ({
  useSessionUser: () => ({
    id: 'u1',
    email: 'pat@example.com',
    user_metadata: { name: 'Pat' },
    app_metadata: {},
  }),
}));
vi.mock('@/data', () => ({ useProfile: () => state.profile }));

const { useCurrentUser } = await import('./use-current-user');

describe('useCurrentUser', () => {
  beforeEach(() => (state.profile = undefined));

  it('has no plan until the profile is read (a premium listener never sees Free first)', () => {
    const { result, rerender } = renderHook(() => useCurrentUser());
    expect(result.current?.planName).toBeNull();
    expect(result.current?.name).toBe('Pat');

    state.profile = { name: 'Pat P', avatar: null, subscriptionPlan: 'premium' };
    rerender();
    expect(result.current?.planName).toBe('Premium');
    expect(result.current?.name).toBe('Pat P');
  });

  it('names the free plan once the profile says so', () => {
    state.profile = { name: 'Pat', avatar: null, subscriptionPlan: 'free' };
    const { result } = renderHook(() => useCurrentUser());
    expect(result.current?.planName).toBe('Free');
  });
});
