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
import { queryBoolean, queryNumber } from "../../shared/http/query.ts";
import { CONNECTOR_TYPES, connectorTypesOf, CURRENT_TYPES } from "../data/connector-types.ts";
import { STATUS_VALUES } from "../data/model.ts";
import { ACCESS_FILTER_VALUES } from "../search/reference.ts";
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

export const strict = <E extends v.ObjectEntries>(entries: E) => v.strictObject(entries, unknownArgument);

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

const radiusRule = v.pipe(
  v.number(),
  v.gtValue(0, `radiusKm must be more than 0 and at most ${RADIUS_MAX_KM}`),
  v.maxValue(RADIUS_MAX_KM, `radiusKm must be more than 0 and at most ${RADIUS_MAX_KM}`),
);

const radiusKm = v.optional(described(radiusRule, "Search radius in km"), RADIUS_DEFAULT_KM);

const minPowerRule = v.pipe(v.number(), v.minValue(0, "minPower must be at least 0 kW"));

const CONNECTOR_HELP = `Case-insensitive substring of a connector type or label (at most ${CONNECTOR_MAX} characters), e.g. ccs, type2, chademo`;

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

// --- the REST query strings: syntax only, then mapped onto the typed inputs above ---

const DECIMAL_LIST = /^-?\d+(\.\d+)?(,-?\d+(\.\d+)?)*$/;

// Numbers are declared as numbers (queryNumber): the typed input's rule, and its default, go in the document.
const decimal = (name: string, rule: string, typed: v.GenericSchema<number>, text: string) =>
  queryNumber(described(typed, text), `${name} must be a plain decimal number (${rule})`);

const digits = (name: string, min: number, max: number, fallback: number) =>
  v.optional(queryNumber(v.pipe(integer(name, min, max), v.metadata({ default: fallback })), `${name} must be an integer from ${min} to ${max}`, "digits"));

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

const items = (text: string) => text.split(",").map((item) => item.trim());

/** A comma list read by `read` (undefined: a word it does not know, refused with `message`). */
const listOf = <T>(name: string, help: string, read: (word: string) => T[] | undefined, message: (word: string) => string) =>
  v.pipe(
    v.string(),
    v.description(help),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const out: T[] = [];
      for (const word of items(dataset.value)) {
        const read_ = word === "" ? undefined : read(word);
        if (!read_) {
          addIssue({ message: word === "" ? `${name} must not have an empty item` : message(word) });
          return NEVER;
        }
        for (const value of read_) if (!out.includes(value)) out.push(value);
      }
      return out;
    }),
  );

const vocabularyWord = (values: readonly string[], fold: (word: string) => string) => (word: string) => {
  const value = values.find((known) => known === fold(word));
  return value === undefined ? undefined : [value];
};

const unknownWord = (name: string, values: readonly string[]) => (word: string) =>
  `${name} "${word.slice(0, 64)}" is not one of ${values.join(", ")}`;

const CONNECTOR_TYPE_HELP = `Comma list of connector types: ${CONNECTOR_TYPES.join(", ")}; common names work too (Type 1, J1772, Type-2, Mennekes, CCS, CHAdeMO, Tesla, NACS), any case`;

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
  minPower: v.optional(decimal("minPower", "kW, at least 0, e.g. 50", minPowerRule, "Keep sites with at least this power in kW")),
  openOnly: v.optional(queryBoolean("openOnly", "true keeps only sites whose status is AVAILABLE (registry data, not live occupancy)")),
  connectorType: v.optional(listOf("connectorType", CONNECTOR_TYPE_HELP, connectorTypesOf, unknownWord("connectorType", CONNECTOR_TYPES))),
  current: v.optional(
    listOf("current", "AC or DC (any case)", vocabularyWord(CURRENT_TYPES, (w) => w.toUpperCase()), unknownWord("current", CURRENT_TYPES)),
  ),
  country: v.optional(listOf("country", "Comma list of ISO 3166-1 alpha-2 codes, any case, e.g. DE,AT", (w) => [w.toUpperCase()], () => "")),
  operator: v.optional(listOf("operator", "Comma list of operator ids or names from GET /api/v1/reference", (w) => [w], () => "")),
  access: v.optional(
    listOf(
      "access",
      `Comma list of ${ACCESS_FILTER_VALUES.join(", ")} (unknown: the source does not say)`,
      vocabularyWord(ACCESS_FILTER_VALUES, (w) => w.toLowerCase()),
      unknownWord("access", ACCESS_FILTER_VALUES),
    ),
  ),
  status: v.optional(
    listOf("status", `Comma list of ${STATUS_VALUES.join(", ")} (any case)`, vocabularyWord(STATUS_VALUES, (w) => w.toUpperCase()), unknownWord("status", STATUS_VALUES)),
  ),
  updatedSince: v.optional(v.pipe(v.string(), v.description("ISO 8601 date or instant: only sites updated at or after it, oldest change first"))),
  cursor: v.optional(v.pipe(v.string(), v.description("page.nextCursor of the page before (a sync)"))),
  near: v.optional(numberList("near", 2, "lat,lon")),
  radiusKm: v.optional(
    decimal("radiusKm", `kilometres, more than 0 and at most ${RADIUS_MAX_KM}`, radiusRule, `Search radius in km around near (default ${RADIUS_DEFAULT_KM})`),
  ),
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
  const { bbox: box, minPower, near, radiusKm: km, format: _format, current, ...rest } = query;
  if (km !== undefined && near === undefined) throw new ApiError("INVALID_ARGUMENTS", "radiusKm needs near=lat,lon");
  if (current && current.length > 1) throw new ApiError("INVALID_ARGUMENTS", "current must be one of AC, DC (one value)");
  const input: Record<string, unknown> = { ...rest, current: current?.[0] };
  if (box) input.bbox = { minLon: box[0], minLat: box[1], maxLon: box[2], maxLat: box[3] };
  if (minPower !== undefined) input.minPowerKw = minPower;
  if (near) input.near = { lat: near[0], lon: near[1], ...(km === undefined ? {} : { radiusKm: km }) };
  for (const key of Object.keys(input)) if (input[key] === undefined) delete input[key];
  return input;
}
