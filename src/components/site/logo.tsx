import { Group, Text } from '@mantine/core';

/** The Soundloft mark: an ember square with three rising bars, then the word. */
export function LogoMark({ size = 28 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden focusable="false">
      <rect width="32" height="32" rx="8" fill="var(--mantine-color-ember-5)" />
      <rect x="7" y="15" width="4" height="10" rx="2" fill="#0d0d12" />
      <rect x="14" y="10" width="4" height="15" rx="2" fill="#0d0d12" />
      <rect x="21" y="6" width="4" height="19" rx="2" fill="#0d0d12" />
    </svg>
  );
}

export function Logo() {
  return (
    <Group gap={8} wrap="nowrap">
      <LogoMark />
      <Text component="span" fw={800} fz="lg" c="gray.0" style={{ letterSpacing: '-0.02em' }}>
        Soundloft
      </Text>
    </Group>
  );
}
