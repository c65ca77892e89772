import { Button, type ButtonProps } from '@mantine/core';
import { IconCheck, IconShare } from '@tabler/icons-react';
import { useEffect, useState } from 'react';

export interface CopyLinkButtonProps extends Omit<ButtonProps, 'children' | 'onClick'> {
  /** What the button says before copying ('Share', 'Share profile'). */
  label: string;
  /** What it says for 2 s after copying ('Link copied!', 'Copied to clipboard!'). */
  copiedLabel: string;
  /** The text copied; defaults to the current page's URL. */
  text?: string;
}

/** Spec 9: copy notices last 2 s. The label change is announced to screen readers. */
export const COPIED_NOTICE_MS = 2000;

export function CopyLinkButton({ label, copiedLabel, text, ...props }: CopyLinkButtonProps) {
  const [copied, setCopied] = useState(false);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_NOTICE_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  return (
    <Button
      variant="default"
      leftSection={
        copied ? <IconCheck size={16} aria-hidden /> : <IconShare size={16} aria-hidden />
      }
      aria-live="polite"
      {...props}
      onClick={() => {
        setFailed(false);
        navigator.clipboard
          .writeText(text ?? window.location.href)
          .then(() => setCopied(true))
          .catch(() => setFailed(true));
      }}
    >
      {copied ? copiedLabel : failed ? 'Copy failed' : label}
    </Button>
  );
}
