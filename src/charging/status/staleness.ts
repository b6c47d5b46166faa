/**
 * The 60-minute refresh SLO: a status record whose `retrievedAt` is older than this is stale.
 * @module
 */

const REFRESH_SLO_MINUTES = 60;
export const REFRESH_SLO_MS = REFRESH_SLO_MINUTES * 60_000;

interface Staleness {
  stale: boolean;
  staleReason?: string;
}

/** Staleness of a static (registry) record; the reason names the SLO and the fallback served. */
export function staleness(retrievedAt: string, now: Date, detail?: string): Staleness {
  const age = now.getTime() - Date.parse(retrievedAt);
  if (age <= REFRESH_SLO_MS) return { stale: false };
  const why = detail ? ` (${detail})` : "";
  return {
    stale: true,
    staleReason: `retrievedAt ${retrievedAt} is older than the ${REFRESH_SLO_MINUTES}-minute refresh SLO; the last-good static cut is served${why}`,
  };
}

/** ISO 8601 UTC with milliseconds, as every status record carries it. */
export function isoMillis(value: string | Date): string {
  return new Date(value).toISOString();
}
