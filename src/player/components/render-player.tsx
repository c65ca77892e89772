/** Renders player UI for tests: Mantine in its test mode (no transitions, no portals). */
import { MantineProvider } from '@mantine/core';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';

function Providers({ children }: { children: ReactNode }) {
  return <MantineProvider env="test">{children}</MantineProvider>;
}

export function renderPlayer(ui: ReactNode) {
  return render(ui, { wrapper: Providers });
}
