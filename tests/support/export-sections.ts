/** Export sections with only the given uploads (and a profile): archive tests and measurements. */
import type { ExportSections } from '../../server/account/export-archive';

export function uploadsOnly(
  uploads: ExportSections['uploads'],
  extra: Partial<ExportSections> = {},
): ExportSections {
  return {
    profile: {},
    likes: [],
    playlists: [],
    follows: { following: [], followers: [] },
    listening_history: [],
    uploads,
    earnings_statement: [],
    withdrawals: [],
    subscriptions: [],
    ...extra,
  };
}
