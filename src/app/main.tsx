import '@fontsource-variable/inter/wght.css';
import '@mantine/core/styles.css';
import './global.css';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';

const container = document.getElementById('root');
if (!container) throw new Error('Soundloft: #root element missing from index.html');

// A transition renders in time slices, so the first render never blocks input for long.
startTransition(() => {
  createRoot(container).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
