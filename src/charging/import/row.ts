/**
 * What an importer makes of one source row: a site, or the reason it is not served.
 * @module
 */
import type { Site } from "../data/model.ts";

/**
 * - `licence-not-open`: the row's data provider has no open licence (see licence.ts)
 * - `closed`: removed, decommissioned or delisted at the source (OCM 200/210, delisted
 *   submissions; OSM lifecycle prefixes or operational_status=closed)
 * - `unpublished`: OCM submission still under review or rejected
 * - `no-coordinates`: missing, out of range or exactly 0,0
 * - `not-a-charging-station`: an OSM object without (lifecycle) amenity=charging_station
 * - `malformed`: the row does not have the source's shape
 * - `duplicate`: the same id came from another file with a newer update date
 */
export type DropReason =
  | "licence-not-open"
  | "closed"
  | "unpublished"
  | "no-coordinates"
  | "not-a-charging-station"
  | "malformed"
  | "duplicate";

export type RowResult = { site: Site } | { drop: DropReason; id?: string };

/** Trimmed text, or null for missing and blank values. */
export function clean(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const text = value.trim().replace(/\s+/g, " ");
  return text === "" ? null : text;
}

/** ISO 8601 UTC with milliseconds, or null for missing and unparsable dates. */
export function isoDate(value: unknown): string | null {
  if (typeof value !== "string" || value === "") return null;
  const time = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value}Z`);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

/** The latest of several optional ISO dates. */
export function latest(...dates: (string | null)[]): string | null {
  const known = dates.filter((d): d is string => d !== null).sort();
  return known.at(-1) ?? null;
}

export function validCoordinates(lat: unknown, lon: unknown): boolean {
  if (typeof lat !== "number" || typeof lon !== "number") return false;
  if (!Number.isFinite(lat) || !Number.isFinite(lon) || Math.abs(lat) > 90 || Math.abs(lon) > 180)
    return false;
  return !(lat === 0 && lon === 0);
}

/** Coordinates rounded to 7 decimals (about 1 cm), as OSM stores them. */
export const round7 = (x: number) => Math.round(x * 1e7) / 1e7;
