/**
 * The charging-site API as one Fetch handler: its policy (CORS headers, rate, keys, body cap),
 * its MCP endpoint and its operations' REST rows, made a service by the kernel
 * (src/shared/service.ts).
 * @module
 */

import { VERSION } from "../shared/build-info.ts";
import type { Compressor, Encoding } from "./transports/http/compress.ts";
import { DEFAULT_MAP_TILES, DEFAULT_RATE_PER_MINUTE, type MapTiles } from "./config.ts";
import { type Cors, createCors } from "../shared/http/cors.ts";
import type { RateLimiter } from "../shared/http/rate-limit.ts";
import type { FetchHandler } from "../shared/http/respond.ts";
import { errorDoc, jsonSchemaOf, type OpenApiInfo, serviceOpenApi } from "../shared/http/openapi.ts";
import type { Route } from "../shared/http/route-table.ts";
import { mcpHttpHandler } from "../shared/mcp/http.ts";
import { listingOf } from "../shared/mcp/listing.ts";
import { defineMcp } from "../shared/mcp/server.ts";
import { createService } from "../shared/service.ts";
import { OPERATIONS } from "./operations/table.ts";
import { CACHE_HEADERS } from "./operations/rest-doc.ts";
import { chargingRest } from "./transports/http/routes.ts";
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

function mcpOf(options: ChargingHandlerOptions, log: (line: string) => void) {
  const resources = chargingResources(options);
  const server = defineMcp(
    { name: "charging-sites", version: VERSION, instructions: INSTRUCTIONS, resourceTemplates: resources.templates },
    chargingTools(options),
    log,
    listingOf,
    resources.read,
  );
  return mcpHttpHandler(server);
}

function pagesOf(options: ChargingHandlerOptions, encodings: readonly Encoding[]) {
  if (!options.mapAssets) return [];
  const tiles = options.mapTiles === undefined ? DEFAULT_MAP_TILES : options.mapTiles;
  return mapRoutes({ assets: options.mapAssets, tiles, encodings, compress: options.compress });
}

/** Creates the handler: the service kernel over the charging operations. */
export function createChargingHandler(options: ChargingHandlerOptions): FetchHandler {
  const log = options.log ?? (() => {});
  const { ratePerMinute = DEFAULT_RATE_PER_MINUTE, apiKeys = [], maxClients, now } = options;
  const gated = apiKeys.length > 0;
  const encodings = options.encodings ?? ["gzip"];
  const rest = chargingRest(options, {
    cacheControl: cacheControlFor(gated),
    encodings,
    compress: options.compress,
    openApi: (routes) => documentOf(gated, routes),
  });
  return createService({
    name: "charging",
    noun: "the API",
    operations: rest.operations,
    pages: pagesOf(options, encodings),
    mcp: mcpOf(options, log),
    openApi: { open: true, answer: rest.document },
    cors: corsOf(options.corsOrigins ?? "*"),
    rate: { perMinute: ratePerMinute, limiter: options.rateLimiter, maxClients, trustedProxies: options.trustedProxies, now },
    key: {
      keys: apiKeys,
      realm: "charging",
      missing: "An API key is required: send it in the x-api-key header",
      invalid: "The API key is not valid: check the x-api-key header",
    },
    maxBodyBytes: options.maxBodyBytes,
    log,
  });
}
