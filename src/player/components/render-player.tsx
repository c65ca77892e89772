/** Renders player UI for tests: Mantine in its test mode (no transitions, no portals). */
import { MantineProvider } from '@mantine/core';
import { render, type RenderResult } from '@testing-library/react';
import type { ReactNode } from 'react';

function Providers({ children }: { children: ReactNode }) {
  return <MantineProvider env="test">{children}</MantineProvider>;
}

export function renderPlayer(ui: ReactNode): RenderResult {
  return render(ui, { wrapper: Providers });
}
