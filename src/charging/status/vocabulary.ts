/**
 * Mapping each source's status vocabulary onto the served OCPI 2.2.1 EVSE statuses.
 * `REMOVED` is only an intermediate verdict: rows that map to it are dropped at import.
 * @module
 */
import type { StatusValue } from "../data/model.ts";

type SourceStatus = StatusValue | "REMOVED";

/**
 * OCM StatusType id -> status. Registry meaning: 50 "Operational" and 75 "Partly Operational"
 * say the site works, not that a plug is free now, so they read AVAILABLE with `statusKind`
 * "registry". 30 "Temporarily Unavailable" is INOPERATIVE (OCM flags it IsOperational, but
 * a driver cannot charge); 100 "Not Operational" is OUTOFORDER; 200/210 are removed.
 */
const OCM_STATUS: Readonly<Record<number, SourceStatus>> = {
  0: "UNKNOWN",
  10: "AVAILABLE",
  20: "CHARGING",
  30: "INOPERATIVE",
  50: "AVAILABLE",
  75: "AVAILABLE",
  100: "OUTOFORDER",
  150: "PLANNED",
  200: "REMOVED",
  210: "REMOVED",
};

/** Which status a site shows when its plugs differ: the most useful to a driver first. */
const PRIORITY: readonly StatusValue[] = [
  "AVAILABLE",
  "CHARGING",
  "RESERVED",
  "BLOCKED",
  "INOPERATIVE",
  "OUTOFORDER",
  "PLANNED",
  "UNKNOWN",
];

/** The site status from per-plug statuses (REMOVED plugs ignored); undefined when none is left. */
export function aggregateStatus(statuses: readonly SourceStatus[]): StatusValue | undefined {
  const present = new Set(statuses);
  return PRIORITY.find((s) => present.has(s));
}

export function ocmStatus(id: number | null | undefined): SourceStatus | undefined {
  return id === null || id === undefined ? undefined : OCM_STATUS[id];
}

/**
 * An OCM site's status: its own StatusTypeID when it says something (not missing, not 0),
 * else the aggregate over its connections' statuses, else UNKNOWN.
 */
export function ocmSiteStatus(
  siteStatusId: number | null | undefined,
  connectionIds: readonly (number | null | undefined)[],
): SourceStatus {
  const own = ocmStatus(siteStatusId);
  if (own !== undefined && own !== "UNKNOWN") return own;
  const fromPlugs = aggregateStatus(
    connectionIds.map(ocmStatus).filter((s): s is SourceStatus => s !== undefined),
  );
  return fromPlugs ?? "UNKNOWN";
}

const LIFECYCLE_CLOSED = ["disused", "abandoned", "removed", "demolished", "razed", "destroyed", "was"];
const LIFECYCLE_PLANNED = ["construction", "planned", "proposed"];

/**
 * An OSM object's status. A plain `amenity=charging_station` asserts an operating station
 * (mappers delete or lifecycle-prefix closed ones), so it reads AVAILABLE as registry data.
 * `operational_status` refines it; lifecycle prefixes (`disused:amenity=charging_station`, ...)
 * mean closed (REMOVED) or not yet built (PLANNED). Undefined: not a charging station at all.
 */
export function osmStatus(tags: Readonly<Record<string, string>>): SourceStatus | undefined {
  const operational = tags.operational_status?.toLowerCase();
  if (tags.amenity === "charging_station") {
    if (operational && /temporar|maintenance|restricted/.test(operational)) return "INOPERATIVE";
    if (operational && /closed|abandoned|removed|disused/.test(operational)) return "REMOVED";
    if (operational && /out_of_order|broken|defect|not_operational/.test(operational)) return "OUTOFORDER";
    return "AVAILABLE";
  }
  const lifecycle = (prefixes: string[]) => prefixes.some((p) => tags[`${p}:amenity`] === "charging_station");
  if (lifecycle(LIFECYCLE_CLOSED)) return "REMOVED";
  if (lifecycle(LIFECYCLE_PLANNED)) return "PLANNED";
  return undefined;
}
