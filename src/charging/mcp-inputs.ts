/**
 * The valibot input schemas of the charging MCP tools (their JSON Schemas are generated from
 * these). Inputs are typed JSON (numbers, booleans, an object bbox), not the REST query
 * strings, and strict: a misspelt argument is refused rather than silently widening a search.
 * @module
 */
import { v } from "../../deps.ts";
import { CONNECTOR_MAX, LIMIT_DEFAULT, LIMIT_MAX, OFFSET_MAX, RADIUS_DEFAULT_KM, RADIUS_MAX_KM } from "./query.ts";

export const ID_HELP = "ids look like ocm:123, osm:node/123 or osm:way/123";

const described = <S extends v.GenericSchema>(schema: S, text: string) => v.pipe(schema, v.description(text));

const lat = described(v.pipe(v.number(), v.minValue(-90), v.maxValue(90)), "Latitude in WGS84 degrees");
const lon = described(v.pipe(v.number(), v.minValue(-180), v.maxValue(180)), "Longitude in WGS84 degrees");

const filters = {
  connector: v.optional(
    described(
      v.pipe(
        v.string(),
        v.minLength(1),
        v.maxLength(CONNECTOR_MAX),
        v.regex(/\S/, "connector must not be blank"),
      ),
      "Case-insensitive substring of a connector type or label, e.g. ccs, type2, chademo",
    ),
  ),
  minPowerKw: v.optional(
    described(v.pipe(v.number(), v.minValue(0)), "Keep sites with at least this power in kW"),
  ),
  openOnly: v.optional(
    described(
      v.boolean(),
      "true keeps only sites whose status is AVAILABLE (registry data, not live occupancy)",
    ),
  ),
};

/**
 * Tool inputs are strict objects: as with the REST query, a misspelt argument (`minPower` for
 * `minPowerKw`) must be refused rather than silently widen a search.
 */
const unknownArgument = (issue: v.BaseIssue<unknown>) =>
  issue.expected === "never"
    ? "unknown argument; use only the names in the input schema"
    : issue.message;

const strict = <E extends v.ObjectEntries>(entries: E) => v.strictObject(entries, unknownArgument);

export const idInput = strict({
  id: described(
    v.pipe(v.string(), v.minLength(1), v.maxLength(100)),
    `Site id from a search result; ${ID_HELP}`,
  ),
});

export const searchInput = strict({
  bbox: v.optional(
    described(
      strict({ minLon: lon, minLat: lat, maxLon: lon, maxLat: lat }),
      "Bounding box in degrees; minLat <= maxLat, and minLon > maxLon means a box across the antimeridian",
    ),
  ),
  ...filters,
  limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(LIMIT_MAX)), LIMIT_DEFAULT),
  offset: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(OFFSET_MAX)), 0),
});

export const nearbyInput = strict({
  lat,
  lon,
  radiusKm: v.optional(
    described(v.pipe(v.number(), v.minValue(0.001), v.maxValue(RADIUS_MAX_KM)), "Search radius in km"),
    RADIUS_DEFAULT_KM,
  ),
  ...filters,
  limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(LIMIT_MAX)), 10),
});
