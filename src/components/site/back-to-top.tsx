import { Button } from '@mantine/core';
import { IconArrowUp } from '@tabler/icons-react';

/** Scrolls to the top and moves focus to the page's h1, so keyboard users land there too. */
export function BackToTop() {
  return (
    <Button
      variant="default"
      leftSection={<IconArrowUp size={16} aria-hidden />}
      onClick={() => {
        window.scrollTo({ top: 0 });
        document.querySelector<HTMLElement>('main h1')?.focus({ preventScroll: true });
      }}
    >
      Back to Top
    </Button>
  );
}
