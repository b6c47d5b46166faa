/**
 * The charging service's four MCP tools, one factory each (inputs: mcp-inputs.ts, structured
 * results: mcp-schemas.ts); every failure names the next step for the agent.
 * @module
 */
import { ApiError, isApiError } from "../shared/errors.ts";
import { defineTool, type ToolDef, type ToolOutput } from "../shared/mcp/tool.ts";
import { searchOutputSchema, siteOutputSchema, statusOutputSchema } from "./mcp-schemas.ts";
import { ID_HELP, idInput, nearbyInput, searchInput } from "./mcp-inputs.ts";
import type { SearchInput } from "./query.ts";
import type { ChargingServices } from "./services.ts";

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

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
