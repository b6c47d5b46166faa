/**
 * The charging-site API as one Fetch handler: its policy (CORS headers, rate, keys, body cap)
 * and its routes, run by the shared pipeline (src/shared/http/pipeline.ts).
 * @module
 */

import { VERSION } from "../shared/build-info.ts";
import type { Compressor, Encoding } from "./transports/http/compress.ts";
import { DEFAULT_MAP_TILES, DEFAULT_RATE_PER_MINUTE, type MapTiles } from "./config.ts";
import { type Cors, createCors } from "../shared/http/cors.ts";
import { createRateLimiter, type RateLimiter } from "../shared/http/rate-limit.ts";
import type { FetchHandler } from "../shared/http/respond.ts";
import { createPipeline } from "../shared/http/pipeline.ts";
import { errorDoc, jsonSchemaOf, type OpenApiInfo, serviceOpenApi } from "../shared/http/openapi.ts";
import { describeRoutes, type Route } from "../shared/http/route-table.ts";
import { mcpHttpHandler } from "../shared/mcp/http.ts";
import { listingOf } from "../shared/mcp/listing.ts";
import { defineMcp } from "../shared/mcp/server.ts";
import { OPERATIONS } from "./operations/table.ts";
import { CACHE_HEADERS } from "./operations/rest-doc.ts";
import { chargingRouteTable } from "./transports/http/routes.ts";
import { type MapAssets, mapRoutes } from "./transports/http/map-page.ts";
import { chargingResources, chargingTools } from "./transports/mcp.ts";
import type { ChargingServices } from "./services.ts";

export interface ChargingHandlerOptions extends ChargingServices {
  /** Requests per minute and client (default 60). */
  ratePerMinute?: number;
  /** Clients the rate limiter remembers at once (default 50,000). */
  maxClients?: number;
  /** Request-body cap in bytes (default 65,536). */
  maxBodyBytes?: number;
  /** Free keys; the gate is off when empty (default). */
  apiKeys?: readonly string[];
  /** Allowed browser origins (default `*`). */
  corsOrigins?: "*" | readonly string[];
  /** Reverse proxies in front whose `x-forwarded-for` entry is trusted (default 0). */
  trustedProxies?: number;
  /** Milliseconds clock for the rate limiter. */
  now?: () => number;
  /**
   * The limiter to count with (the Node adapter passes one shared through Redis when
   * `CHARGING_REDIS_URL` is set); default: in memory, per process, with `ratePerMinute`.
   */
  rateLimiter?: RateLimiter;
  /**
   * Content encodings offered, preferred first (default gzip, the one every runtime's
   * CompressionStream has; the Node adapter adds brotli).
   */
  encodings?: readonly Encoding[];
  /** How answers are compressed (default `CompressionStream`, brotli at quality 11). */
  compress?: Compressor;
  /** Where unexpected failures are reported (never keys or bodies). */
  log?: (line: string) => void;
  /** The map page's bundled files; with them, `GET /` serves the map page (none without). */
  mapAssets?: MapAssets;
  /** The map page's base map (default OpenStreetMap's tiles; null: none). */
  mapTiles?: MapTiles | null;
}

const INSTRUCTIONS =
  "Open-data EV charging sites (Open Charge Map, OpenStreetMap). Use search_sites for an area or filters, find_nearby_sites for a point, then get_site or get_site_status with an id from the results. The values of the exact filters (connector types, operators, countries, ...) with their counts are the resource charging://reference; the data set's import time and sources are charging://dataset. Show the attribution returned with the data.";

/** A static cut may be reused for 5 minutes; behind a key gate only by the client itself. */
const cacheControlFor = (gated: boolean) => `${gated ? "private" : "public"}, max-age=300`;

function corsOf(origins: "*" | readonly string[]): Cors {
  return createCors({
    origins,
    allowHeaders: ["content-type", "x-api-key", "authorization", "mcp-protocol-version", "mcp-session-id", "last-event-id"],
    exposeHeaders: ["retry-after", "ratelimit", "ratelimit-policy", "etag", "mcp-session-id", "mcp-protocol-version"],
  });
}

function limiterOf(options: ChargingHandlerOptions, ratePerMinute: number): RateLimiter {
  if (options.rateLimiter) return options.rateLimiter;
  const { maxClients = 50_000, now } = options;
  return createRateLimiter({ limit: ratePerMinute, windowMs: 60_000, maxClients, ...(now ? { now } : {}) });
}

const DOC_INFO: OpenApiInfo = {
  title: "Charging-site API",
  version: VERSION,
  description:
    "Read-only API over open charging-site data (Open Charge Map, OpenStreetMap). Every error is {\"error\":{\"code\",\"message\"}}. Show the attribution returned with the data.",
  license: { name: "MIT", identifier: "MIT" },
};

const GUARDED = {
  "401": errorDoc("UNAUTHORIZED: the key gate is on and the key is missing or unknown"),
  "429": { ...errorDoc("RATE_LIMITED: over the per-client rate"), headers: { "retry-after": "Seconds until the window resets" } },
};

/** The document of the operation table and the routes; `gated` adds the key scheme (x-api-key, or Authorization: Bearer). */
function documentOf(gated: boolean, routes: readonly Route<URL>[]): Record<string, unknown> {
  const security = { kind: "apiKey", header: "x-api-key", description: "A free key (or Authorization: Bearer <key>)", bearerAlso: true } as const;
  const outputs = OPERATIONS.map((op) => ({ output: jsonSchemaOf(op.output, "output"), rest: op.rest }));
  return serviceOpenApi(
    {
      info: { ...DOC_INFO, ...(gated ? { security } : {}) },
      guarded: GUARDED,
      routes,
      documentHeaders: CACHE_HEADERS,
      mcp: { summary: "MCP over Streamable HTTP (stateless, JSON responses): tools/list, then tools/call" },
    },
    outputs,
  );
}

function routesOf(options: ChargingHandlerOptions, gated: boolean, log: (line: string) => void): Route<URL>[] {
  const resources = chargingResources(options);
  const server = defineMcp(
    { name: "charging-sites", version: VERSION, instructions: INSTRUCTIONS, resourceTemplates: resources.templates },
    chargingTools(options),
    log,
    listingOf,
    resources.read,
  );
  const encodings = options.encodings ?? ["gzip"];
  const routes = chargingRouteTable(options, mcpHttpHandler(server), {
    cacheControl: cacheControlFor(gated),
    encodings,
    compress: options.compress,
    openApi: (routes) => documentOf(gated, routes),
  });
  if (!options.mapAssets) return routes;
  const tiles = options.mapTiles === undefined ? DEFAULT_MAP_TILES : options.mapTiles;
  return [...routes, ...mapRoutes({ assets: options.mapAssets, tiles, encodings, compress: options.compress })];
}

/** Creates the handler: the shared pipeline over the charging routes. */
export function createChargingHandler(options: ChargingHandlerOptions): FetchHandler {
  const log = options.log ?? (() => {});
  const { ratePerMinute = DEFAULT_RATE_PER_MINUTE, apiKeys = [] } = options;
  const routes = routesOf(options, apiKeys.length > 0, log);
  return createPipeline({
    routes,
    cors: corsOf(options.corsOrigins ?? "*"),
    rateLimit: { limiter: limiterOf(options, ratePerMinute), perMinute: ratePerMinute, trustedProxies: options.trustedProxies },
    key: {
      keys: apiKeys,
      realm: "charging",
      missing: "An API key is required: send it in the x-api-key header",
      invalid: "The API key is not valid: check the x-api-key header",
    },
    maxBodyBytes: options.maxBodyBytes,
    noRoute: `No such route; the API has ${describeRoutes(routes)}`,
    unexpected: (err) => log(`charging: unexpected ${err instanceof Error ? err.message : String(err)}`),
  });
}
