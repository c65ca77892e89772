import { Flex } from '@mantine/core';
import type { ReactNode } from 'react';

/** A table row's action buttons: side by side, or one above the other on a phone. */
export function RowActions({ children }: { children: ReactNode }) {
  return (
    <Flex
      gap={6}
      direction={{ base: 'column', sm: 'row' }}
      align={{ base: 'stretch', sm: 'center' }}
    >
      {children}
    </Flex>
  );
}
