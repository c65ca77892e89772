/**
 * /copyright/business-days (docs/trust-and-safety.md § Business days): the holidays the copyright
 * deadlines skip, read from `public.business_holidays` (readable by everyone), grouped by year,
 * and the rule for a date past the last year listed.
 */
import { Alert, Container, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { PublicPage } from '@/components/site/public-page';
import { loadBusinessHolidays, type BusinessHoliday } from './copyright-remote';

const dayFormat = new Intl.DateTimeFormat('en', {
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});

type State =
  | { kind: 'loading' }
  | { kind: 'error'; message: string }
  | { kind: 'loaded'; holidays: BusinessHoliday[] };

/** The holidays by year, years in order. */
function byYear(holidays: BusinessHoliday[]): [number, BusinessHoliday[]][] {
  const years = new Map<number, BusinessHoliday[]>();
  for (const h of holidays) {
    const year = Number(h.day.slice(0, 4));
    years.set(year, [...(years.get(year) ?? []), h]);
  }
  return [...years.entries()].sort(([a], [b]) => a - b);
}

export function BusinessDaysPage() {
  const [state, setState] = useState<State>({ kind: 'loading' });
  useEffect(() => {
    loadBusinessHolidays().then(
      (holidays) => setState({ kind: 'loaded', holidays }),
      (e: unknown) =>
        setState({ kind: 'error', message: e instanceof Error ? e.message : String(e) }),
    );
  }, []);
  const years = state.kind === 'loaded' ? byYear(state.holidays) : [];
  const last = years.at(-1)?.[0];

  return (
    <PublicPage>
      <Container size="sm" py={{ base: 32, md: 64 }}>
        <Stack gap="md">
          <Title order={1}>Business days</Title>
          <Text c="gray.3">
            The deadlines of our <Link to="/copyright-policy">Copyright Policy</Link> are counted in
            business days: Monday to Friday, except the US federal holidays listed below. A deadline
            falls at the same time of day (UTC) as the step it counts from.
          </Text>
          {state.kind === 'loading' ? <Loader aria-label="Loading the holidays" /> : null}
          {state.kind === 'error' ? (
            <Alert color="red" role="alert" title="The holidays could not be loaded">
              {state.message}
            </Alert>
          ) : null}
          {state.kind === 'loaded' && years.length === 0 ? (
            <Text>No holidays are listed: business days are Monday to Friday.</Text>
          ) : null}
          {years.length > 0 ? (
            <>
              <Text>
                Years covered: {years.map(([year]) => year).join(', ')}. For a date after {last},
                until its holidays are added, business days are Monday to Friday only.
              </Text>
              {years.map(([year, holidays]) => (
                <section key={year} aria-labelledby={`holidays-${year}`}>
                  <Title order={2} fz="h3" id={`holidays-${year}`} mb="xs">
                    {year}
                  </Title>
                  <Table.ScrollContainer minWidth={280}>
                    <Table aria-labelledby={`holidays-${year}`}>
                      <Table.Thead>
                        <Table.Tr>
                          <Table.Th scope="col">Date</Table.Th>
                          <Table.Th scope="col">Holiday</Table.Th>
                        </Table.Tr>
                      </Table.Thead>
                      <Table.Tbody>
                        {holidays.map((h) => (
                          <Table.Tr key={h.day}>
                            <Table.Td>
                              <time dateTime={h.day}>
                                {dayFormat.format(new Date(`${h.day}T00:00:00Z`))}
                              </time>
                            </Table.Td>
                            <Table.Td>{h.name}</Table.Td>
                          </Table.Tr>
                        ))}
                      </Table.Tbody>
                    </Table>
                  </Table.ScrollContainer>
                </section>
              ))}
            </>
          ) : null}
        </Stack>
      </Container>
    </PublicPage>
  );
}
