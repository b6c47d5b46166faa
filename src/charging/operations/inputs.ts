/**
 * What the charging operations take, as valibot schemas shared by every transport. The typed
 * inputs (numbers, booleans, a bbox object) hold every rule once: ranges, the bbox order
 * (minLat <= maxLat; minLon > maxLon is a box across the antimeridian, e.g. around Fiji), the
 * connector's length in characters. MCP tools take them as they are; a REST query string is
 * first read by its own syntax schema (plain decimals, comma lists, `true`/`false`), mapped to
 * the typed input, and parsed by the same schema, so REST and MCP cannot disagree.
 *
 * Inputs are strict: a misspelt argument (`minPower` for `minPowerKw`, or the query's
 * `minpower`) is refused rather than silently widening a search.
 * @module
 */
import { v } from "../../../deps.ts";
import { ApiError } from "../../shared/errors.ts";
import type { SiteQuery as StoreQuery } from "../search/store.ts";

const LIMIT_MAX = 100;
const LIMIT_DEFAULT = 20;
const OFFSET_MAX = 100_000;
const CONNECTOR_MAX = 64;
const RADIUS_MAX_KM = 500;
const RADIUS_DEFAULT_KM = 10;
const NEARBY_LIMIT_DEFAULT = 10;

export const ID_HELP = "ids look like ocm:123, osm:node/123 or osm:way/123";

const described = <S extends v.GenericSchema>(schema: S, text: string) => v.pipe(schema, v.description(text));

const between = (min: number, max: number, message: string) =>
  v.pipe(v.number(), v.minValue(min, message), v.maxValue(max, message));

const integer = (name: string, min: number, max: number) => {
  const message = `${name} must be an integer from ${min} to ${max}`;
  return v.pipe(v.number(), v.integer(message), v.minValue(min, message), v.maxValue(max, message));
};

const BBOX_RANGE = "bbox longitudes must be within -180..180 and latitudes within -90..90";
const NEAR_RANGE = "near must be lat within -90..90 and lon within -180..180";

const unknownArgument = (issue: v.BaseIssue<unknown>) =>
  issue.expected === "never" ? "unknown argument; use only the names in the input schema" : issue.message;

const strict = <E extends v.ObjectEntries>(entries: E) => v.strictObject(entries, unknownArgument);

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

const radiusKm = v.optional(
  described(
    v.pipe(
      v.number(),
      v.gtValue(0, `radiusKm must be more than 0 and at most ${RADIUS_MAX_KM}`),
      v.maxValue(RADIUS_MAX_KM, `radiusKm must be more than 0 and at most ${RADIUS_MAX_KM}`),
    ),
    "Search radius in km",
  ),
  RADIUS_DEFAULT_KM,
);

const CONNECTOR_HELP = `Case-insensitive substring of a connector type or label (at most ${CONNECTOR_MAX} characters), e.g. ccs, type2, chademo`;

const filters = {
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
    described(v.pipe(v.number(), v.minValue(0, "minPower must be at least 0 kW")), "Keep sites with at least this power in kW"),
  ),
  openOnly: v.optional(
    described(v.boolean(), "true keeps only sites whose status is AVAILABLE (registry data, not live occupancy)"),
  ),
};

const page = {
  limit: v.optional(integer("limit", 1, LIMIT_MAX), LIMIT_DEFAULT),
  offset: v.optional(integer("offset", 0, OFFSET_MAX), 0),
};

/** A search: an optional box and point, the filters, one page. */
export const SearchInput = strict({
  bbox: v.optional(bbox),
  near: v.optional(strict({ ...point, radiusKm })),
  ...filters,
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
export function siteQueryOf({ bbox: box, near, connector, minPowerKw, openOnly, limit, offset }: SearchInput): StoreQuery {
  const query: StoreQuery = { limit, offset };
  if (box) query.bbox = [box.minLon, box.minLat, box.maxLon, box.maxLat];
  if (near) query.near = near;
  if (connector !== undefined) query.connector = connector;
  if (minPowerKw !== undefined) query.minPower = minPowerKw;
  if (openOnly !== undefined) query.openOnly = openOnly;
  return query;
}

// --- the REST query strings: syntax only, then mapped onto the typed inputs above ---

const DECIMAL = /^-?\d+(\.\d+)?$/;
const INTEGER = /^\d+$/;
const DECIMAL_LIST = /^-?\d+(\.\d+)?(,-?\d+(\.\d+)?)*$/;

const decimal = (name: string, rule: string, text: string) =>
  v.pipe(v.string(), v.regex(DECIMAL, `${name} must be a plain decimal number (${rule})`), v.description(text), v.transform(Number));

const digits = (name: string, min: number, max: number, fallback: number) =>
  v.optional(
    v.pipe(v.string(), v.regex(INTEGER, `${name} must be an integer from ${min} to ${max}`), v.transform(Number)),
    String(fallback),
  );

const numberList = (name: string, count: number, format: string) => {
  const message = `${name} must be ${count} comma-separated decimal numbers: ${format}`;
  return v.pipe(
    v.string(),
    v.regex(DECIMAL_LIST, message),
    v.description(format),
    v.transform((text) => text.split(",").map(Number)),
    v.check((list) => list.length === count, message),
  );
};

/** `format=geojson` answers a GeoJSON FeatureCollection (as `Accept: application/geo+json` does). */
const FormatQuery = v.optional(
  v.pipe(
    v.picklist(["json", "geojson"], "format must be json or geojson"),
    v.description("json (default) or geojson: a FeatureCollection, as Accept: application/geo+json gives"),
  ),
);

export type AnswerFormat = "json" | "geojson";

/** The query of `GET /api/v1/sites`. */
export const SitesQuery = v.object({
  bbox: v.optional(numberList("bbox", 4, "minLon,minLat,maxLon,maxLat")),
  connector: v.optional(v.pipe(v.string(), v.description(CONNECTOR_HELP))),
  minPower: v.optional(decimal("minPower", "kW, at least 0, e.g. 50", "Keep sites with at least this power in kW")),
  openOnly: v.optional(
    v.pipe(v.picklist(["true", "false"], "openOnly must be true or false"), v.transform((text) => text === "true")),
  ),
  near: v.optional(numberList("near", 2, "lat,lon")),
  radiusKm: v.optional(decimal("radiusKm", `kilometres, more than 0 and at most ${RADIUS_MAX_KM}`, "Search radius in km around near (default 10)")),
  limit: digits("limit", 1, LIMIT_MAX, LIMIT_DEFAULT),
  offset: digits("offset", 0, OFFSET_MAX, 0),
  format: FormatQuery,
});

/** The query of `GET /api/v1/sites/:id` (parseQuery refuses any other name). */
export const SiteByIdQuery = v.object({ format: FormatQuery });

/** `GET /api/v1/status/:id` takes no parameter (its record is JSON only). */
export const StatusQuery = v.object({});

/** A sites query mapped onto the search input (still to be parsed by `SearchInput`). */
export function searchOfQuery(query: v.InferOutput<typeof SitesQuery>): Record<string, unknown> {
  const { bbox: box, minPower, near, radiusKm: km, format: _format, ...rest } = query;
  if (km !== undefined && near === undefined) throw new ApiError("INVALID_ARGUMENTS", "radiusKm needs near=lat,lon");
  const input: Record<string, unknown> = { ...rest };
  if (box) input.bbox = { minLon: box[0], minLat: box[1], maxLon: box[2], maxLat: box[3] };
  if (minPower !== undefined) input.minPowerKw = minPower;
  if (near) input.near = { lat: near[0], lon: near[1], ...(km === undefined ? {} : { radiusKm: km }) };
  for (const key of Object.keys(input)) if (input[key] === undefined) delete input[key];
  return input;
}
