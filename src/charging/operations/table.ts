/**
 * The charging service's operations, one row each: name and texts, the valibot input and
 * output, the handler, and the REST face (path, query schema, how the query maps onto the
 * input, how the answer is kept). The MCP tools (transports/mcp.ts), the REST routes
 * (transports/http/routes.ts) and the OpenAPI document are all made from this table: a new
 * operation is one row here.
 * @module
 */
import type { v } from "../../../deps.ts";
import { ApiError, isApiError } from "../../shared/errors.ts";
import { errorDoc, jsonSchemaOf } from "../../shared/http/openapi.ts";
import type { RestFace as SharedRestFace } from "../../shared/http/rest-face.ts";
import type { ToolAnnotations } from "../../shared/mcp/tool.ts";
import type { AnyObjectSchema } from "../../shared/validate.ts";
import type { ChargingServices } from "../services.ts";
import { SitePathSchema, siteIdOf } from "../data/site-id.ts";
import type { Attribution, Site } from "../data/model.ts";
import { type SearchResult, unknownSite } from "../search/store.ts";
import { IdInput, NearbyInput, SearchInput } from "./inputs.ts";
import { searchOfQuery, SiteByIdQuery, SitesQuery, StatusQuery } from "./rest-queries.ts";
import { RouteQuery, routeOfQuery, routeQueryOf, RouteSearchInput, SearchSitesRouteInput } from "./route-search.ts";
import { datasetOf, DATASET_DESCRIPTION, NoQuery, REFERENCE_DESCRIPTION } from "./reference.ts";
import { DatasetOutput, ReferenceOutput } from "./outputs.ts";
import { FeatureCollectionOutput, SearchOutput, SiteAnswerOutput, SiteFeatureOutput, StatusOutput } from "./outputs.ts";
import { CACHE_HEADERS, NOT_FOUND_DOC } from "./rest-doc.ts";

/* eslint-disable @typescript-eslint/no-explicit-any -- a table holds rows of different inputs and results */
type AnyResult = any;
/* eslint-enable @typescript-eslint/no-explicit-any */

/** How a REST answer is kept: per query string (a search), per cut (a site), or not at all (a live status). */
type Keeping = "per-query" | "per-cut" | "live";

/** The shared REST face (rest-face.ts) with how charging keeps its answers. */
export interface RestFace extends SharedRestFace {
  /** The schema the mapped query is parsed by (default: the operation's input). */
  input?: AnyObjectSchema;
  keeping: Keeping;
}

export interface Operation<S extends AnyObjectSchema = AnyObjectSchema, R = AnyResult> {
  name: string;
  title: string;
  /** Written for agents: what it does, when to use it, what it returns. */
  description: string;
  input: S;
  /** The structured answer (MCP result, REST JSON body). */
  output: v.GenericSchema;
  run(services: ChargingServices, input: v.InferOutput<S>, signal: AbortSignal): Promise<R>;
  /** The structured answer of a result. */
  answer(result: R): Record<string, unknown>;
  /** Turns a failure into what an agent should read (default: as it is). */
  forAgents?(err: unknown): unknown;
  /** False: REST only, no MCP tool (the spec fixes the four tools; a route search is search_sites with a route). */
  tool?: false;
  /** The URI agents read this operation's answer at, as an MCP resource (operations without input). */
  resource?: string;
  rest?: RestFace;
}

/** Declares a row with its input and result types inferred. */
function defineOperation<S extends AnyObjectSchema, R>(operation: Operation<S, R>): Operation {
  return operation as unknown as Operation;
}

/** What the search handlers return: the parsed input (for the page) and the store's result. */
export interface SearchRun {
  input: SearchInput;
  result: SearchResult;
}

/** What get_site returns. */
export interface SiteRun {
  site: Site;
  attribution: Attribution;
}

export const READ_ONLY: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };


const searchAnswer = ({ data, total, attribution, nextCursor }: SearchResult, { limit, offset }: { limit: number; offset: number }) => ({
  data,
  page: { limit, offset, total, ...(nextCursor ? { nextCursor } : {}) },
  attribution,
});

const search = (services: ChargingServices, input: SearchInput) => services.store.search(routeQueryOf(input));

const SEARCH_SITES = defineOperation({
  name: "search_sites",
  title: "Search charging sites",
  description:
    "Searches open-data EV charging sites (Open Charge Map and OpenStreetMap) by bounding box, connector, minimum power and AVAILABLE status, or along a route: give route (an encoded polyline or a GeoJSON LineString) and corridorKm (km either side, default 5, at most 50) and the sites come in order along the route, each with alongKm and offRouteKm. Returns one page of sites (id, name, coordinates, address, operator, connectors with kW, status) with the total match count and the attribution to show. Page with offset while offset + limit < total. Exact filters: connectorType (plug types such as type1, type2, ccs2), current (AC or DC), country (ISO codes), operator, access (public, ...) and status; their values with counts are the resource charging://reference. updatedSince returns changes oldest first: page with cursor = page.nextCursor. Use find_nearby_sites for a point and radius.",
  input: SearchSitesRouteInput,
  output: SearchOutput,
  run: async (services, input): Promise<SearchRun> => ({ input, result: await search(services, input) }),
  answer: ({ input, result }) => searchAnswer(result, input),
  rest: {
    path: "/api/v1/sites",
    operationId: "searchSites",
    summary: "Search charging sites",
    description:
      "One page of sites. With near (radius) or bbox, nearest first from the point or the box centre; otherwise id order. Unknown, repeated or empty parameters answer 400.",
    query: SitesQuery,
    input: SearchInput,
    toInput: (query) => searchOfQuery(query as v.InferOutput<typeof SitesQuery>),
    keeping: "per-query",
    answer: {
      description: "A page of sites with the total count and the credit lines to show",
      headers: CACHE_HEADERS,
      alternatives: { "application/geo+json": jsonSchemaOf(FeatureCollectionOutput, "output") },
    },
    errors: { "400": errorDoc("INVALID_ARGUMENTS naming the parameter and the rule") },
  },
});

const SEARCH_ROUTE = defineOperation({
  name: "search_route",
  title: "Search charging sites along a route",
  description:
    "Sites within corridorKm (either side) of a route, in order along it, each with alongKm (to its nearest point of the route) and offRouteKm; every filter of the site search applies.",
  input: RouteSearchInput,
  output: SearchOutput,
  tool: false,
  run: async (services, input): Promise<SearchRun> => ({ input, result: await search(services, input) }),
  answer: ({ input, result }) => searchAnswer(result, input),
  rest: {
    path: "/api/v1/route",
    operationId: "searchRoute",
    summary: "Search charging sites along a route",
    description:
      "Sites within corridorKm (default 5, at most 50) either side of a route given as polyline (encoded, precision 5) or geojson (a LineString), ordered by alongKm, then offRouteKm, then id; a site near two parts of the route counts once, at its nearest. Every filter of /api/v1/sites applies (bbox as one more filter). For routes too long for a URL, POST the same arguments as a JSON body (route: a polyline string or a LineString object).",
    query: RouteQuery,
    toInput: (query) => routeOfQuery(query as v.InferOutput<typeof RouteQuery>),
    post: {
      operationId: "searchRoutePost",
      description:
        "The arguments as JSON, for routes too long for a URL (the body cap applies): route (an encoded polyline string or a GeoJSON LineString object), corridorKm, the filters (minPowerKw, bbox as an object, ...), limit, offset. Only format goes in the query string.",
      body: RouteSearchInput,
      query: SiteByIdQuery,
    },
    keeping: "per-query",
    answer: {
      description: "A page of sites in route order with the total count and the credit lines to show",
      headers: CACHE_HEADERS,
      alternatives: { "application/geo+json": jsonSchemaOf(FeatureCollectionOutput, "output") },
    },
    errors: { "400": errorDoc("INVALID_ARGUMENTS naming the parameter and what is wrong with the route") },
  },
});

const FIND_NEARBY_SITES = defineOperation({
  name: "find_nearby_sites",
  title: "Find charging sites near a point",
  description:
    "Finds open-data EV charging sites within radiusKm of a point, nearest first, each with distanceKm. Optional connector, minimum power and AVAILABLE filters, and the exact filters of search_sites (connectorType, current, country, operator, access, status). Use it for 'chargers near X' once you have X's coordinates (this server does no geocoding).",
  input: NearbyInput,
  output: SearchOutput,
  async run(services, { lat, lon, radiusKm, limit, ...filters }): Promise<SearchRun> {
    const input: SearchInput = { ...filters, near: { lat, lon, radiusKm }, limit, offset: 0 };
    return { input, result: await search(services, input) };
  },
  answer: ({ input, result }) => searchAnswer(result, input),
});

const GET_SITE = defineOperation({
  name: "get_site",
  title: "Get one charging site",
  description:
    "Returns every field of one charging site by id (from search_sites or find_nearby_sites): address, operator, network, connectors (type, label, kW, quantity, AC/DC), access, fee, opening hours, registry status, licence and attribution.",
  input: IdInput,
  output: SiteAnswerOutput,
  async run({ store }, { id }): Promise<SiteRun> {
    const site = store.get(id);
    if (!site) throw unknownSite(id);
    return { site, attribution: store.attributionFor(site) };
  },
  answer: ({ site, attribution }) => ({ data: site, attribution }),
  rest: {
    path: "/api/v1/sites/:id+",
    operationId: "getSite",
    summary: "One charging site",
    pathParams: SitePathSchema,
    query: SiteByIdQuery,
    toInput: (_query, params) => ({ id: siteIdOf(params.id) }),
    keeping: "per-cut",
    answer: {
      description: "The site with its credit line",
      headers: CACHE_HEADERS,
      alternatives: { "application/geo+json": jsonSchemaOf(SiteFeatureOutput, "output") },
    },
    errors: { "404": NOT_FOUND_DOC },
  },
});

const GET_SITE_STATUS = defineOperation({
  name: "get_site_status",
  title: "Get a charging site's status",
  description:
    "Returns the status of one charging site (OCPI vocabulary: AVAILABLE, CHARGING, OUTOFORDER, ...), when it was retrieved, and stale=true with a reason when it is older than the 60-minute refresh SLO. Registry status says a site is listed as operational, not that a plug is free right now.",
  input: IdInput,
  output: StatusOutput,
  run: ({ status }, { id }, signal) => status.statusOf(id, signal),
  answer: (record) => ({ data: record }),
  forAgents(err) {
    if (isApiError(err, "UPSTREAM_BLOCKED")) {
      return new ApiError("UPSTREAM_BLOCKED", `${err.message}. Do not retry; get_site still returns the registry status`);
    }
    return err;
  },
  rest: {
    path: "/api/v1/status/:id+",
    operationId: "getSiteStatus",
    summary: "A charging site's status (registry or live), with staleness against the 60-minute SLO",
    pathParams: SitePathSchema,
    query: StatusQuery,
    toInput: (_query, params) => ({ id: siteIdOf(params.id) }),
    keeping: "live",
    answer: { description: "The status record" },
    errors: {
      "403": errorDoc("UPSTREAM_BLOCKED: the live feed is not allowlisted or resolves to a private address"),
      "404": NOT_FOUND_DOC,
    },
  },
});

const GET_REFERENCE = defineOperation({
  name: "get_reference",
  title: "Reference data: the filters' vocabularies",
  description: REFERENCE_DESCRIPTION,
  input: NoQuery,
  output: ReferenceOutput,
  tool: false,
  resource: "charging://reference",
  run: async ({ store }) => store.reference(),
  answer: (reference) => ({ data: reference }),
  rest: {
    path: "/api/v1/reference",
    operationId: "getReference",
    summary: "The values of the exact filters, each with its count of sites",
    description: REFERENCE_DESCRIPTION,
    query: NoQuery,
    toInput: () => ({}),
    keeping: "per-cut",
    answer: { description: "Connector types, currents, operators, countries, access values and statuses with counts", headers: CACHE_HEADERS },
  },
});

const GET_DATASET = defineOperation({
  name: "get_dataset",
  title: "The loaded data set",
  description: DATASET_DESCRIPTION,
  input: NoQuery,
  output: DatasetOutput,
  tool: false,
  resource: "charging://dataset",
  run: async ({ store }) => datasetOf(store),
  answer: (dataset) => ({ data: dataset }),
  rest: {
    path: "/api/v1/dataset",
    operationId: "getDataset",
    summary: "The loaded data set: id, import time, sources with licences and counts",
    description: DATASET_DESCRIPTION,
    query: NoQuery,
    toInput: () => ({}),
    keeping: "per-cut",
    answer: { description: "The snapshot's id, import time, partitions and files", headers: CACHE_HEADERS },
  },
});

/** Every operation; the MCP listing keeps this order. */
export const OPERATIONS: readonly Operation[] = [SEARCH_SITES, FIND_NEARBY_SITES, GET_SITE, GET_SITE_STATUS, SEARCH_ROUTE, GET_REFERENCE, GET_DATASET];
