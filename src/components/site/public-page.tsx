import { Box } from '@mantine/core';
import type { ReactNode } from 'react';
import { SiteFooter } from './site-footer';
import { SiteHeader, type HeaderAccount, type HeaderNavItem } from './site-header';

/** Layout of every public page: skip link, sticky header, main landmark, footer. */
export function PublicPage({
  children,
  nav,
  account,
}: {
  children: ReactNode;
  nav?: HeaderNavItem[];
  /** The session's status, for a page that reads it: the header then fits a signed-in user. */
  account?: HeaderAccount;
}) {
  return (
    <>
      <a className="sl-skip-link" href="#main">
        Skip to content
      </a>
      <SiteHeader nav={nav} account={account} />
      <Box component="main" id="main" tabIndex={-1} style={{ outline: 'none' }}>
        {children}
      </Box>
      <SiteFooter />
    </>
  );
}
