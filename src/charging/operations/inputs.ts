/**
 * What the charging operations take, as valibot schemas shared by every transport. The typed
 * inputs (numbers, booleans, a bbox object) hold every rule once: ranges, the bbox order
 * (minLat <= maxLat; minLon > maxLon is a box across the antimeridian, e.g. around Fiji), the
 * connector's length in characters. MCP tools take them as they are; a REST query string is
 * first read by its own syntax schema (rest-queries.ts), mapped to the typed input, and parsed by
 * the same schema, so REST and MCP cannot disagree.
 *
 * Inputs are strict: a misspelt argument (`minPower` for `minPowerKw`, or the query's
 * `minpower`) is refused rather than silently widening a search.
 * @module
 */
import { v } from "../../../deps.ts";
import { CONNECTOR_TYPES, CURRENT_TYPES } from "../data/connector-types.ts";
import { STATUS_VALUES } from "../data/model.ts";
import { ACCESS_FILTER_VALUES } from "../search/reference.ts";
import type { SiteQuery as StoreQuery } from "../search/store.ts";
import { between, CONNECTOR_HELP, CONNECTOR_MAX, described, ID_HELP, integer, LIMIT_DEFAULT, LIMIT_MAX, minPowerRule, OFFSET_MAX, RADIUS_DEFAULT_KM, radiusRule, strict } from "./input-rules.ts";

const NEARBY_LIMIT_DEFAULT = 10;

const BBOX_RANGE = "bbox longitudes must be within -180..180 and latitudes within -90..90";
const NEAR_RANGE = "near must be lat within -90..90 and lon within -180..180";

/** The one bbox rule set: WGS84 ranges per corner, then minLat <= maxLat. */
const bbox = described(
  v.pipe(
    strict({
      minLon: between(-180, 180, BBOX_RANGE),
      minLat: between(-90, 90, BBOX_RANGE),
      maxLon: between(-180, 180, BBOX_RANGE),
      maxLat: between(-90, 90, BBOX_RANGE),
    }),
    v.check(
      (box) => box.minLat <= box.maxLat,
      "bbox minLat must not exceed maxLat; swap them (order: minLon,minLat,maxLon,maxLat)",
    ),
  ),
  "Bounding box in degrees; minLat <= maxLat, and minLon > maxLon means a box across the antimeridian",
);

const point = {
  lat: described(between(-90, 90, NEAR_RANGE), "Latitude in WGS84 degrees"),
  lon: described(between(-180, 180, NEAR_RANGE), "Longitude in WGS84 degrees"),
};

const radiusKm = v.optional(described(radiusRule, "Search radius in km"), RADIUS_DEFAULT_KM);

const oneOf = (name: string, values: readonly string[]) => `${name} must be one of ${values.join(", ")}`;

/** A non-empty list of values from a closed vocabulary (an enum in the JSON Schema). */
const setOf = <T extends string>(name: string, values: readonly T[], text: string) =>
  v.optional(
    described(
      v.pipe(v.array(v.picklist(values, oneOf(name, values))), v.minLength(1, `${name} must list at least one value`), v.maxLength(values.length)),
      text,
    ),
  );

const REFERENCE_HINT = "the values and their counts are in GET /api/v1/reference (MCP resource charging://reference)";
const ISO_INSTANT = /^\d{4}-\d\d-\d\d(T\d\d:\d\d(:\d\d(\.\d{1,9})?)?(Z|[+-]\d\d:\d\d))?$/;

/** The exact filters: closed vocabularies, and countries and operators of the reference data. */
const exact = {
  connectorType: setOf(
    "connectorType",
    CONNECTOR_TYPES,
    "Keep sites with a connector of one of these normalised types (type1 is SAE J1772, type2 Mennekes, nacs SAE J3400, tesla Tesla's own plugs); with current, the same connector must have both",
  ),
  current: v.optional(described(v.picklist(CURRENT_TYPES, oneOf("current", CURRENT_TYPES)), "Keep sites with a connector of this current")),
  country: v.optional(
    described(
      v.pipe(
        v.array(v.pipe(v.string(), v.regex(/^[A-Z]{2}$/, "country must be ISO 3166-1 alpha-2 codes, e.g. DE or US"))),
        v.minLength(1, "country must list at least one code"),
        v.maxLength(50, "country lists at most 50 codes"),
      ),
      `ISO 3166-1 alpha-2 country codes, upper case (${REFERENCE_HINT})`,
    ),
  ),
  operator: v.optional(
    described(
      v.pipe(
        v.array(v.pipe(v.string(), v.minLength(1), v.maxLength(200, "operator must be at most 200 characters"))),
        v.minLength(1, "operator must list at least one operator"),
        v.maxLength(20, "operator lists at most 20 operators"),
      ),
      `Operator ids or names, any case (${REFERENCE_HINT}); an operator the data set does not have is refused`,
    ),
  ),
  access: setOf(
    "access",
    ACCESS_FILTER_VALUES,
    "Keep sites with one of these access values (unknown: the source does not say); public keeps only sites open to everyone",
  ),
  status: setOf("status", STATUS_VALUES, "Keep sites with one of these (registry) statuses"),
};

const filters = {
  ...exact,
  connector: v.optional(
    described(
      v.pipe(
        v.string(),
        // A blank needle would match every label with a space in it: no filter at all.
        v.regex(/\S/, "connector must not be blank"),
        // Characters, not UTF-16 code units: "ü" and "🔌" count one each.
        v.check((text) => [...text].length <= CONNECTOR_MAX, `connector must be at most ${CONNECTOR_MAX} characters`),
      ),
      CONNECTOR_HELP,
    ),
  ),
  minPowerKw: v.optional(
    described(minPowerRule, "Keep sites with at least this power in kW"),
  ),
  openOnly: v.optional(
    described(v.boolean(), "true keeps only sites whose status is AVAILABLE (registry data, not live occupancy)"),
  ),
};

const page = {
  limit: v.optional(integer("limit", 1, LIMIT_MAX), LIMIT_DEFAULT),
  offset: v.optional(integer("offset", 0, OFFSET_MAX), 0),
};

/** Whether an ISO date's day exists (Date.parse reads 2025-02-30 as March 2). */
function isRealDate(text: string): boolean {
  const [year, month, day] = text.slice(0, 10).split("-").map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return !Number.isNaN(Date.parse(text)) && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** A sync: sites updated since an instant, in (updatedAt, id) order, paged by cursor. */
const sync = {
  updatedSince: v.optional(
    described(
      v.pipe(
        v.string(),
        v.regex(ISO_INSTANT, "updatedSince must be an ISO 8601 date or UTC instant, e.g. 2025-01-31T00:00:00Z"),
        v.check(isRealDate, "updatedSince must be a real date"),
      ),
      "Only sites updated at or after this ISO 8601 instant, oldest change first; page on with cursor",
    ),
  ),
  cursor: v.optional(
    described(
      v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,200}$/, "cursor is not one this API gave; use page.nextCursor")),
      "page.nextCursor of the page before: the next page of a sync (updatedSince or cursor orders by update time, then id)",
    ),
  ),
};

/** A search: an optional box and point, the filters, one page. */
export const SearchInput = strict({
  bbox: v.optional(bbox),
  near: v.optional(strict({ ...point, radiusKm })),
  ...filters,
  ...sync,
  ...page,
});
export type SearchInput = v.InferOutput<typeof SearchInput>;

/** search_sites: a search without a point (find_nearby_sites has it). */
export const SearchSitesInput = v.omit(SearchInput, ["near"]);

/** find_nearby_sites: a point and radius, the filters, the first page. */
export const NearbyInput = strict({
  ...point,
  radiusKm,
  ...filters,
  limit: v.optional(integer("limit", 1, LIMIT_MAX), NEARBY_LIMIT_DEFAULT),
});

export const IdInput = strict({
  id: described(v.pipe(v.string(), v.minLength(1), v.maxLength(100)), `Site id from a search result; ${ID_HELP}`),
});

/** The store query of a parsed search (absent filters stay absent). */
export function siteQueryOf(input: SearchInput): StoreQuery {
  const { bbox: box, near, connector, minPowerKw, openOnly, limit, offset } = input;
  const query: StoreQuery = { limit, offset };
  if (box) query.bbox = [box.minLon, box.minLat, box.maxLon, box.maxLat];
  if (near) query.near = near;
  if (connector !== undefined) query.connector = connector;
  if (minPowerKw !== undefined) query.minPower = minPowerKw;
  if (openOnly !== undefined) query.openOnly = openOnly;
  if (input.connectorType) query.connectorTypes = input.connectorType;
  if (input.current) query.current = input.current;
  if (input.country) query.countries = input.country;
  if (input.operator) query.operators = input.operator;
  if (input.access) query.access = input.access;
  if (input.status) query.statuses = input.status;
  if (input.updatedSince !== undefined) query.updatedSince = input.updatedSince;
  if (input.cursor !== undefined) query.cursor = input.cursor;
  return query;
}
