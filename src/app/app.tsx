import { MantineProvider } from '@mantine/core';
import { RouterProvider } from '@tanstack/react-router';
import { AppErrorBoundary } from './app-error-boundary';
import type { createAppRouter } from './create-router';
import { theme } from './theme';
import { UpdatePrompt } from './update-prompt';

/** The whole app for a router: the browser's, or the prerenderer's memory router. */
export function App({ router }: { router: ReturnType<typeof createAppRouter> }) {
  return (
    <MantineProvider theme={theme} defaultColorScheme="dark" forceColorScheme="dark">
      <AppErrorBoundary>
        <RouterProvider router={router} />
        <UpdatePrompt />
      </AppErrorBoundary>
    </MantineProvider>
  );
}
