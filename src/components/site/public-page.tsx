import { Box } from '@mantine/core';
import type { ReactNode } from 'react';
import { SiteFooter } from './site-footer';
import { SiteHeader, type HeaderNavItem } from './site-header';

/** Layout of every public page: skip link, sticky header, main landmark, footer. */
export function PublicPage({ children, nav }: { children: ReactNode; nav?: HeaderNavItem[] }) {
  return (
    <>
      <a className="sl-skip-link" href="#main">
        Skip to content
      </a>
      <SiteHeader nav={nav} />
      <Box component="main" id="main" tabIndex={-1} style={{ outline: 'none' }}>
        {children}
      </Box>
      <SiteFooter />
    </>
  );
}
