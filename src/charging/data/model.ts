/**
 * The charging-site data model every part of the charging service shares. The full field
 * reference (meaning, units, where each value comes from per source) is in `DATA.md`.
 * @module
 */

/** Where a row comes from: `ocm` = Open Charge Map (registry), `osm` = OpenStreetMap (map data). */
export type Source = "ocm" | "osm";

/**
 * OCPI 2.2.1 EVSE status vocabulary (`mod_locations` 8.4.22), minus `REMOVED`: a removed site
 * is dropped at import and answers NOT_FOUND, so REMOVED is never served.
 * - AVAILABLE: able to start a new session (for registry data: listed as operational)
 * - CHARGING: in use
 * - BLOCKED: a physical barrier (e.g. a parked car) prevents charging
 * - RESERVED: reserved for a particular driver
 * - OUTOFORDER: broken or not operational
 * - INOPERATIVE: temporarily not available, but not broken (e.g. maintenance)
 * - PLANNED: will be operating soon
 * - UNKNOWN: no information
 */
export type StatusValue =
  | "AVAILABLE"
  | "CHARGING"
  | "BLOCKED"
  | "RESERVED"
  | "OUTOFORDER"
  | "INOPERATIVE"
  | "PLANNED"
  | "UNKNOWN";

export const STATUS_VALUES: readonly StatusValue[] = [
  "AVAILABLE",
  "CHARGING",
  "BLOCKED",
  "RESERVED",
  "OUTOFORDER",
  "INOPERATIVE",
  "PLANNED",
  "UNKNOWN",
];

/** Who may charge: `null` when the source does not say. */
export type Access = "public" | "customers" | "membership" | "private";

export const ACCESS_VALUES: readonly Access[] = ["public", "customers", "membership", "private"];

/** One kind of plug at a site (OCM: one `Connections[]` entry; OSM: one `socket:<type>` key). */
export interface Connector {
  /** Normalised type from `connectors.ts` (`ccs2`, `type2`, `chademo`, ..., `other`). */
  type: string;
  /** The source's own label (OCM ConnectionType title, OSM key such as `socket:type2_combo`). */
  label: string;
  /** Maximum power of one such connector in kW; null when the source does not say. */
  powerKw: number | null;
  /** How many of these connectors the site has; null when the source does not say. */
  quantity: number | null;
  current: "AC" | "DC" | null;
}

export interface Address {
  line1: string | null;
  line2: string | null;
  town: string | null;
  /** State, province or region as the source writes it. */
  region: string | null;
  postcode: string | null;
  /** ISO 3166-1 alpha-2, upper case. */
  countryCode: string | null;
}

export interface Site {
  /** `ocm:<ID>`, `osm:node/<n>`, `osm:way/<n>` or `osm:relation/<n>`. */
  id: string;
  source: Source;
  /** SPDX identifier (or `LicenseRef-...`) of the licence the row is published under. */
  licence: string;
  /** Key of the row's data partition; `attributionFor` turns it into the credit line. */
  attributionKey: string;
  name: string | null;
  /** WGS84 degrees; ways and relations carry their centroid. */
  lat: number;
  lon: number;
  address: Address | null;
  operator: string | null;
  network: string | null;
  connectors: Connector[];
  /** Highest `powerKw` over the connectors; null when none is known. */
  maxPowerKw: number | null;
  /** Vehicles that can charge at once (OSM `capacity`, OCM `NumberOfPoints` or summed quantities). */
  capacity: number | null;
  access: Access | null;
  /** Whether charging costs money; null when unknown. */
  fee: boolean | null;
  /** Free-text price as the source writes it (OCM `UsageCost`, OSM `charge`). */
  usageCost: string | null;
  /** OSM `opening_hours` syntax, e.g. `24/7`. */
  openingHours: string | null;
  status: StatusValue;
  /** Registry status: what the open data says, not a live observation. */
  statusKind: "registry";
  /** ISO 8601 UTC: when the source last confirmed this row (see DATA.md per source). */
  lastUpdated: string | null;
  /** The row's page at its source. */
  sourceUrl: string;
  /** Only on `near` searches: great-circle distance from the query point. */
  distanceKm?: number;
  /** Only on route searches: km along the route to the site's nearest projection onto it. */
  alongKm?: number;
  /** Only on route searches: km from the site to the route. */
  offRouteKm?: number;
}

export interface Attribution {
  text: string;
  url: string;
}
