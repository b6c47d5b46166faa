/**
 * The REST query strings of the site routes, read for their syntax only: plain decimals,
 * comma lists, `true`/`false`, closed vocabularies in any case or by their common names.
 * `searchOfQuery` then maps a sites query onto the typed search input (inputs.ts), whose
 * schema holds every range and rule, so a query and an MCP call are refused with the same words.
 * @module
 */
import { v } from "../../../deps.ts";
import { ApiError } from "../../shared/errors.ts";
import { queryBoolean, queryNumber } from "../../shared/http/query.ts";
import { CONNECTOR_TYPES, connectorTypesOf, CURRENT_TYPES } from "../data/connector-types.ts";
import { STATUS_VALUES } from "../data/model.ts";
import { ACCESS_FILTER_VALUES } from "../search/reference.ts";
import { CONNECTOR_HELP, described, integer, LIMIT_DEFAULT, LIMIT_MAX, minPowerRule, OFFSET_MAX, RADIUS_DEFAULT_KM, RADIUS_MAX_KM, radiusRule } from "./input-rules.ts";

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
  // Only the names given are copied: deleting the others afterwards turned the object into a
  // dictionary, which the input's parse then read more slowly on every query.
  const input: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(rest)) if (value !== undefined) input[key] = value;
  if (current?.[0] !== undefined) input.current = current[0];
  if (box) input.bbox = { minLon: box[0], minLat: box[1], maxLon: box[2], maxLat: box[3] };
  if (minPower !== undefined) input.minPowerKw = minPower;
  if (near) input.near = { lat: near[0], lon: near[1], ...(km === undefined ? {} : { radiusKm: km }) };
  return input;
}
