/**
 * Vitest's sequencer, with the suite's longest files started first. On a clean CI checkout
 * vitest has no timings cached, so it orders by project name and file size: the sync property
 * test (web project, 2–2.5 min on its own) started after every node file and ended the run alone.
 * Started first, it overlaps the rest of the suite. Measured per file in docs/architecture.md
 * ("Tests and figures"); a file missing from the list only runs in vitest's own order.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const LONG_FIRST = [
  'tests/sync/sync.property.test.ts',
  'server/plays/online-plays.integration.test.ts',
  'tests/sync/sync.integration.test.ts',
  'supabase/functions/spleeter/handler.test.ts',
];

const rank = (spec: TestSpecification): number => {
  const i = LONG_FIRST.findIndex((path) => spec.moduleId.endsWith(path));
  return i < 0 ? LONG_FIRST.length : i;
};

export default class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    // Array.prototype.sort is stable: the rest keep vitest's order.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
