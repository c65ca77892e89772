import { Button, Group } from '@mantine/core';
import type { GenreCount } from '@/data/search';

export interface GenreChipsProps {
  genres: readonly GenreCount[];
  /** The current search text (a chip is pressed when it equals its genre). */
  query: string;
  onPick: (genre: string) => void;
}

/** The catalogue's commonest genres as one-tap searches; a pressed chip clears the search. */
export function GenreChips({ genres, query, onPick }: GenreChipsProps) {
  if (genres.length === 0) return null;
  const current = query.trim().toLowerCase();
  return (
    <Group gap={8} role="group" aria-label="Browse by genre">
      {genres.map(({ genre, count }) => {
        const pressed = genre.toLowerCase() === current;
        return (
          <Button
            key={genre}
            size="compact-sm"
            radius="xl"
            variant={pressed ? 'filled' : 'default'}
            aria-pressed={pressed}
            title={`${count} tracks`}
            onClick={() => onPick(pressed ? '' : genre)}
          >
            {genre}
          </Button>
        );
      })}
    </Group>
  );
}
