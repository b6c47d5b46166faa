/**
 * How a site's fields become column values: the id split into kind and number, the enum
 * codes, and the text fields in `TEXT_FIELDS` order.
 * @module
 */
import { ApiError } from "../../shared/errors.ts";
import { ACCESS_VALUES, type Site, STATUS_VALUES } from "../data/model.ts";
import { ID_KINDS, type TEXT_FIELDS } from "./format.ts";

const ID = /^(ocm:|osm:node\/|osm:way\/|osm:relation\/)([1-9]\d*)$/;

/** Id kind and numeric part; ids past 2^53 cannot be told apart as numbers, so they are refused. */
export function splitId(id: string): { kind: number; num: number } {
  const match = ID.exec(id);
  const num = match ? Number(match[2]) : Number.NaN;
  if (!match || !Number.isSafeInteger(num)) throw new ApiError("INVALID_DATA", `site id ${id.slice(0, 60)} cannot be stored`);
  return { kind: ID_KINDS.indexOf(match[1] as (typeof ID_KINDS)[number]), num };
}

export const ACCESS_CODE = new Map(ACCESS_VALUES.map((a, i) => [a, i + 1]));
export const STATUS_CODE = new Map(STATUS_VALUES.map((s, i) => [s, i]));
export const CURRENT_CODE = { AC: 1, DC: 2 } as const;

export function textOf(site: Site, field: (typeof TEXT_FIELDS)[number]): string | null {
  switch (field) {
    case "name":
    case "operator":
    case "network":
    case "usageCost":
    case "openingHours":
    case "lastUpdated":
      return site[field];
    default:
      return site.address?.[field] ?? null;
  }
}
