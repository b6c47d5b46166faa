/**
 * The charging service's four MCP tools. Inputs are typed JSON (numbers, booleans, an
 * object bbox), not the REST query strings; every failure names the next step for the agent.
 * @module
 */
import { v } from "../../deps.ts";
import { ApiError, isApiError } from "../shared/errors.ts";
import { defineTool, type ToolDef, type ToolOutput } from "../shared/mcp/tool.ts";
import { searchOutputSchema, siteOutputSchema, statusOutputSchema } from "./mcp-schemas.ts";
import {
  CONNECTOR_MAX,
  LIMIT_DEFAULT,
  LIMIT_MAX,
  OFFSET_MAX,
  RADIUS_DEFAULT_KM,
  RADIUS_MAX_KM,
  type SearchInput,
} from "./query.ts";
import type { ChargingServices } from "./services.ts";

const ID_HELP = "ids look like ocm:123, osm:node/123 or osm:way/123";
const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

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

const idInput = strict({
  id: described(
    v.pipe(v.string(), v.minLength(1), v.maxLength(100)),
    `Site id from a search result; ${ID_HELP}`,
  ),
});

function jsonOutput(structured: Record<string, unknown>): ToolOutput {
  return { structured, text: JSON.stringify(structured) };
}

const unknownSite = (id: string) =>
  new ApiError(
    "NOT_FOUND",
    `No open site has id "${id.slice(0, 100)}" (${ID_HELP}); call search_sites or find_nearby_sites first and use an id from its results`,
  );

/** A status failure as an agent should read it: the same code, and what to call instead. */
function forAgents(err: unknown, id: string): unknown {
  if (isApiError(err, "NOT_FOUND")) return unknownSite(id);
  if (isApiError(err, "UPSTREAM_BLOCKED")) {
    return new ApiError("UPSTREAM_BLOCKED", `${err.message}. Do not retry; get_site still returns the registry status`);
  }
  return err;
}

interface FilterArgs {
  connector?: string | undefined;
  minPowerKw?: number | undefined;
  openOnly?: boolean | undefined;
}

/** `query` with the filters the agent gave (absent ones stay absent, as the REST query has them). */
function withFilters(query: SearchInput, { connector, minPowerKw, openOnly }: FilterArgs): SearchInput {
  if (connector !== undefined) query.connector = connector;
  if (minPowerKw !== undefined) query.minPower = minPowerKw;
  if (openOnly !== undefined) query.openOnly = openOnly;
  return query;
}

async function searchOutput({ store }: ChargingServices, query: SearchInput): Promise<ToolOutput> {
  const { data, total, attribution } = await store.search(query);
  return jsonOutput({ data, page: { limit: query.limit, offset: query.offset, total }, attribution });
}

const searchInput = strict({
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

function searchSitesTool(services: ChargingServices): ToolDef {
  return defineTool({
    name: "search_sites",
    title: "Search charging sites",
    description:
      "Searches open-data EV charging sites (Open Charge Map and OpenStreetMap) by bounding box, connector, minimum power and AVAILABLE status. Returns one page of sites (id, name, coordinates, address, operator, connectors with kW, status) with the total match count and the attribution to show. Page with offset while offset + limit < total. Use find_nearby_sites for a point and radius.",
    input: searchInput,
    output: searchOutputSchema,
    annotations: READ_ONLY,
    async run({ bbox, limit, offset, ...rest }) {
      if (bbox && bbox.minLat > bbox.maxLat) {
        throw new ApiError("INVALID_ARGUMENTS", "bbox.minLat must not exceed bbox.maxLat; swap them and call again");
      }
      const query: SearchInput = { limit, offset };
      if (bbox) query.bbox = [bbox.minLon, bbox.minLat, bbox.maxLon, bbox.maxLat];
      return searchOutput(services, withFilters(query, rest));
    },
  });
}

const nearbyInput = strict({
  lat,
  lon,
  radiusKm: v.optional(
    described(v.pipe(v.number(), v.minValue(0.001), v.maxValue(RADIUS_MAX_KM)), "Search radius in km"),
    RADIUS_DEFAULT_KM,
  ),
  ...filters,
  limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(LIMIT_MAX)), 10),
});

function findNearbySitesTool(services: ChargingServices): ToolDef {
  return defineTool({
    name: "find_nearby_sites",
    title: "Find charging sites near a point",
    description:
      "Finds open-data EV charging sites within radiusKm of a point, nearest first, each with distanceKm. Optional connector, minimum power and AVAILABLE filters. Use it for 'chargers near X' once you have X's coordinates (this server does no geocoding).",
    input: nearbyInput,
    output: searchOutputSchema,
    annotations: READ_ONLY,
    async run({ lat: at, lon: lng, radiusKm, limit, ...rest }) {
      const query: SearchInput = { near: { lat: at, lon: lng, radiusKm }, limit, offset: 0 };
      return searchOutput(services, withFilters(query, rest));
    },
  });
}

function getSiteTool({ store }: ChargingServices): ToolDef {
  return defineTool({
    name: "get_site",
    title: "Get one charging site",
    description:
      "Returns every field of one charging site by id (from search_sites or find_nearby_sites): address, operator, network, connectors (type, label, kW, quantity, AC/DC), access, fee, opening hours, registry status, licence and attribution.",
    input: idInput,
    output: siteOutputSchema,
    annotations: READ_ONLY,
    async run({ id }) {
      const site = store.get(id);
      if (!site) throw unknownSite(id);
      return jsonOutput({ data: site, attribution: store.attributionFor(site) });
    },
  });
}

function getSiteStatusTool({ status }: ChargingServices): ToolDef {
  return defineTool({
    name: "get_site_status",
    title: "Get a charging site's status",
    description:
      "Returns the status of one charging site (OCPI vocabulary: AVAILABLE, CHARGING, OUTOFORDER, ...), when it was retrieved, and stale=true with a reason when it is older than the 60-minute refresh SLO. Registry status says a site is listed as operational, not that a plug is free right now.",
    input: idInput,
    output: statusOutputSchema,
    annotations: READ_ONLY,
    async run({ id }, { signal }) {
      try {
        return jsonOutput({ data: await status.statusOf(id, signal) });
      } catch (err) {
        throw forAgents(err, id);
      }
    },
  });
}

/** The four tools over `services`; a new tool is one factory above and one entry here. */
export function chargingTools(services: ChargingServices): ToolDef[] {
  return [searchSitesTool(services), findNearbySitesTool(services), getSiteTool(services), getSiteStatusTool(services)];
}
