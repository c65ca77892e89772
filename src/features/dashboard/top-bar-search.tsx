import { ActionIcon, Button, Group, TextInput } from '@mantine/core';
import { IconSearch, IconX } from '@tabler/icons-react';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';

/** Spec 2: search → /explore?q={text}; blank is ignored, text trimmed, a clear button. */
export function TopBarSearch() {
  const navigate = useNavigate();
  const q = useSearch({
    strict: false,
    select: (s: { q?: unknown }) => (typeof s.q === 'string' ? s.q : ''),
  });
  const [text, setText] = useState(q);
  // A new ?q= (explore's own box, a link) shows here too: adjust state while rendering.
  const [shownQ, setShownQ] = useState(q);
  if (q !== shownQ) {
    setShownQ(q);
    setText(q);
  }

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const query = text.trim();
    if (!query) return;
    void navigate({ to: '/explore', search: { q: query } });
  };

  return (
    <form role="search" onSubmit={submit} style={{ flex: '1 1 auto', maxWidth: 560, minWidth: 0 }}>
      <Group gap={6} wrap="nowrap">
        <TextInput
          aria-label="Search"
          placeholder="Search tracks, artists, albums..."
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          leftSection={<IconSearch size={16} aria-hidden />}
          rightSection={
            text ? (
              <ActionIcon
                variant="subtle"
                color="gray"
                size="sm"
                aria-label="Clear search"
                onClick={() => setText('')}
              >
                <IconX size={14} aria-hidden />
              </ActionIcon>
            ) : null
          }
          radius="xl"
          style={{ flex: 1, minWidth: 0 }}
        />
        <Button type="submit" radius="xl" visibleFrom="xs">
          Search
        </Button>
        <ActionIcon type="submit" size="lg" radius="xl" hiddenFrom="xs" aria-label="Search">
          <IconSearch size={16} aria-hidden />
        </ActionIcon>
      </Group>
    </form>
  );
}
