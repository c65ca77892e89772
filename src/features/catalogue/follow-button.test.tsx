import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { expect, it, vi } from 'vitest';
import { FollowButton } from './follow-button';

vi.mock('@/data', () => ({ getRepositories: () => ({ follows: { toggle: vi.fn() } }) }));

const renderButton = (following: boolean | undefined) =>
  render(
    <MantineProvider env="test">
      <FollowButton userId="u1" following={following} name="Neon Harbor" />
    </MantineProvider>,
  );

it('while the follow state loads: a disabled loading button, neither Follow nor Following', () => {
  renderButton(undefined);
  const button = screen.getByRole('button', { name: 'Checking whether you follow Neon Harbor' });
  expect(button).toBeDisabled();
  expect(button).toHaveAttribute('data-loading');
  expect(screen.queryByRole('button', { name: 'Follow' })).toBeNull();
  expect(screen.queryByRole('button', { name: 'Following' })).toBeNull();
});

it('once known: Follow or Following, enabled, with aria-pressed', () => {
  const { unmount } = renderButton(false);
  expect(screen.getByRole('button', { name: 'Follow' })).toHaveAttribute('aria-pressed', 'false');
  expect(screen.getByRole('button', { name: 'Follow' })).toBeEnabled();
  unmount();
  renderButton(true);
  expect(screen.getByRole('button', { name: 'Following' })).toHaveAttribute('aria-pressed', 'true');
});
