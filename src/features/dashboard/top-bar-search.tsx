import { ActionIcon, Button, Combobox, Group, Text, TextInput, useCombobox } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconClock, IconSearch, IconX } from '@tabler/icons-react';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useState, type FormEvent, type ReactNode } from 'react';
import { PREPARING_SEARCH, useCatalogueSearch, useRecentSearches } from '@/data/search';
import { CoverArt, SearchHitText, hitHref } from '@/features/catalogue';
import classes from './top-bar-search.module.css';

/** Results in the dropdown while typing (issue 33). */
export const DROPDOWN_RESULTS = 5;
/** Typing settles this long before the dropdown searches. */
export const DROPDOWN_DEBOUNCE_MS = 120;
const RECENT_PREFIX = 'recent:';
const CLEAR_RECENT = 'clear-recent';

/**
 * Spec 2: search → /explore?q={text}; blank is ignored, text trimmed, a clear button.
 * Issue 33: an instant dropdown of the best 5 results as the user types (ARIA combobox through
 * Mantine's Combobox: arrow keys move, Enter opens the highlighted result or, with none, searches;
 * Escape closes), and the listener's recent searches when the box is empty.
 */
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
  const [debounced] = useDebouncedValue(text, DROPDOWN_DEBOUNCE_MS);
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  const search = useCatalogueSearch(debounced, DROPDOWN_RESULTS);
  const { recent, add, clear } = useRecentSearches();
  const typed = text.trim();

  const go = (query: string) => {
    void add(query);
    combobox.closeDropdown();
    void navigate({ to: '/explore', search: { q: query } });
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const query = text.trim();
    if (!query) return;
    go(query);
  };

  const pick = (value: string) => {
    if (value === CLEAR_RECENT) {
      void clear();
      return;
    }
    if (value.startsWith(RECENT_PREFIX)) {
      const query = value.slice(RECENT_PREFIX.length);
      setText(query);
      go(query);
      return;
    }
    const hit = search.hits.find((h) => h.doc.id === value);
    if (!hit) return;
    void add(typed);
    combobox.closeDropdown();
    void navigate({ to: hitHref(hit) });
  };

  const stale = debounced.trim() !== typed;
  let body: ReactNode;
  if (!typed) {
    body =
      recent.length === 0 ? null : (
        <Combobox.Group label="Recent searches">
          {recent.map((r) => (
            <Combobox.Option value={`${RECENT_PREFIX}${r}`} key={r}>
              <Group gap="xs" wrap="nowrap">
                <IconClock size={14} aria-hidden />
                <Text size="sm" truncate>
                  {r}
                </Text>
              </Group>
            </Combobox.Option>
          ))}
          <Combobox.Option value={CLEAR_RECENT}>
            <Text size="sm" c="dimmed">
              Clear recent searches
            </Text>
          </Combobox.Option>
        </Combobox.Group>
      );
  } else if (search.hits.length > 0) {
    body = search.hits.map((hit) => (
      <Combobox.Option value={hit.doc.id} key={hit.doc.id}>
        <Group gap="sm" wrap="nowrap">
          <CoverArt
            src={hit.doc.coverImage}
            seed={hit.doc.id}
            size={36}
            kind={hit.doc.kind === 'playlist' ? 'playlist' : 'track'}
          />
          <SearchHitText hit={hit} queryTerms={search.queryTerms} />
        </Group>
      </Combobox.Option>
    ));
  } else if (!stale && !search.indexing && !search.searchingServer) {
    body = <Combobox.Empty>No results for "{typed}"</Combobox.Empty>;
  } else {
    body = <Combobox.Empty>Searching…</Combobox.Empty>;
  }

  return (
    <form role="search" onSubmit={submit} style={{ flex: '1 1 auto', maxWidth: 560, minWidth: 0 }}>
      <Group gap={6} wrap="nowrap">
        <Combobox
          store={combobox}
          onOptionSubmit={pick}
          withinPortal
          position="bottom-start"
          middlewares={{ flip: false, shift: true }}
        >
          <Combobox.Target withExpandedAttribute>
            <TextInput
              aria-label="Search"
              placeholder="Search tracks, artists, albums..."
              value={text}
              onChange={(e) => {
                setText(e.currentTarget.value);
                combobox.openDropdown();
                combobox.resetSelectedOption();
              }}
              onFocus={() => combobox.openDropdown()}
              onClick={() => combobox.openDropdown()}
              onBlur={() => combobox.closeDropdown()}
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
          </Combobox.Target>
          <Combobox.Dropdown
            hidden={body === null}
            aria-label="Search suggestions"
            className={classes.dropdown}
          >
            <Combobox.Options aria-label="Search suggestions">{body}</Combobox.Options>
            {/* The first build is running: these are the most played and the server's. */}
            <Combobox.Footer hidden={!typed || !search.indexing}>
              <Text size="xs" c="dimmed" role="status">
                {typed && search.indexing ? PREPARING_SEARCH : ''}
              </Text>
            </Combobox.Footer>
          </Combobox.Dropdown>
        </Combobox>
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
