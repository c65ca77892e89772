import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppErrorBoundary } from './app-error-boundary';

let shouldThrow = true;
function Flaky() {
  if (shouldThrow) throw new Error('Audio engine exploded');
  return <p>All good</p>;
}

describe('AppErrorBoundary', () => {
  beforeEach(() => {
    shouldThrow = true;
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => vi.restoreAllMocks());

  it("shows 'Something went wrong' with the message, and 'Try again' renders the app again", async () => {
    render(
      <MantineProvider>
        <AppErrorBoundary>
          <Flaky />
        </AppErrorBoundary>
      </MantineProvider>,
    );
    expect(screen.getByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument();
    expect(screen.getByText('Audio engine exploded')).toBeInTheDocument();

    shouldThrow = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(screen.getByText('All good')).toBeInTheDocument();
    expect(screen.queryByText('Something went wrong')).not.toBeInTheDocument();
  });

  it('keeps showing the fallback when the error persists', async () => {
    render(
      <MantineProvider>
        <AppErrorBoundary>
          <Flaky />
        </AppErrorBoundary>
      </MantineProvider>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(screen.getByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument();
  });
});
