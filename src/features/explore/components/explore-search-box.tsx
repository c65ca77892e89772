import { CloseButton, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useRef } from 'react';
import { SEARCH_PLACEHOLDER } from '../explore-text';

export interface ExploreSearchBoxProps {
  value: string;
  onChange: (value: string) => void;
}

/** The page's own search box: filters as you type; Escape or the clear button empties it. */
export function ExploreSearchBox({ value, onChange }: ExploreSearchBoxProps) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <form role="search" aria-label="Search the catalogue" onSubmit={(e) => e.preventDefault()}>
      <TextInput
        ref={input}
        type="search"
        size="md"
        radius="xl"
        aria-label="Search tracks, artists, albums and genres"
        placeholder={SEARCH_PLACEHOLDER}
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape' && value) {
            e.preventDefault();
            onChange('');
          }
        }}
        leftSection={<IconSearch size={18} aria-hidden />}
        rightSection={
          value ? (
            <CloseButton
              aria-label="Clear the search box"
              onClick={() => {
                onChange('');
                input.current?.focus();
              }}
            />
          ) : null
        }
        autoComplete="off"
        spellCheck={false}
        styles={{ input: { WebkitAppearance: 'none' } }}
      />
    </form>
  );
}
