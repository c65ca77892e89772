import { MantineProvider } from '@mantine/core';
import { RouterProvider } from '@tanstack/react-router';
import { AppErrorBoundary } from './app-error-boundary';
import { router } from './router';
import { theme } from './theme';
import { UpdatePrompt } from './update-prompt';

export function App() {
  return (
    <MantineProvider theme={theme} defaultColorScheme="dark" forceColorScheme="dark">
      <AppErrorBoundary>
        <RouterProvider router={router} />
        <UpdatePrompt />
      </AppErrorBoundary>
    </MantineProvider>
  );
}
