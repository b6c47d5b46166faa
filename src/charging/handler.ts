/**
 * The charging-site API as one Fetch handler: CORS preflight, per-client rate limit, the
 * optional key gate, the body cap, then the routes. It never throws: anything unexpected
 * becomes INTERNAL without details, and every answer, errors included, carries CORS headers.
 * @module
 */

import { VERSION } from "../shared/build-info.ts";
import { ApiError, toErrorResponse } from "../shared/errors.ts";
import { createKeyGate } from "../shared/http/api-key.ts";
import { withBodyCap } from "../shared/http/body-limit.ts";
import { clientKey } from "../shared/http/client-ip.ts";
import type { Encoding } from "../shared/http/compress.ts";
import { createCors } from "../shared/http/cors.ts";
import { createRateLimiter, type RateLimiter } from "../shared/http/rate-limit.ts";
import type { FetchHandler } from "../shared/http/respond.ts";
import { mcpHttpHandler } from "../shared/mcp/http.ts";
import { defineMcp } from "../shared/mcp/server.ts";
import { chargingTools } from "./mcp-tools.ts";
import { chargingOpenApi } from "./openapi.ts";
import { chargingRoutes, OPENAPI_PATH } from "./routes.ts";
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
  /** Where unexpected failures are reported (never keys or bodies). */
  log?: (line: string) => void;
}

export const DEFAULT_MAX_BODY_BYTES = 65_536;
export const DEFAULT_RATE_PER_MINUTE = 60;

const INSTRUCTIONS =
  "Open-data EV charging sites (Open Charge Map, OpenStreetMap). Use search_sites for an area or filters, find_nearby_sites for a point, then get_site or get_site_status with an id from the results. Show the attribution returned with the data.";

const NO_ROUTE =
  "No such route; the API has GET /healthz, /api/v1/sites, /api/v1/sites/:id, /api/v1/status/:id, /api/v1/openapi.json and POST /mcp";

/** A static cut may be reused for 5 minutes; behind a key gate only by the client itself. */
const cacheControlFor = (gated: boolean) => `${gated ? "private" : "public"}, max-age=300`;

/** Creates the handler. */
export function createChargingHandler(options: ChargingHandlerOptions): FetchHandler {
  const {
    ratePerMinute = DEFAULT_RATE_PER_MINUTE,
    maxClients = 50_000,
    maxBodyBytes = DEFAULT_MAX_BODY_BYTES,
    apiKeys = [],
    corsOrigins = "*",
    trustedProxies = 0,
    now,
    log = () => {},
  } = options;
  const limiter =
    options.rateLimiter ??
    createRateLimiter({ limit: ratePerMinute, windowMs: 60_000, maxClients, ...(now ? { now } : {}) });
  const gate = apiKeys.length > 0 ? createKeyGate(apiKeys) : undefined;
  const cors = createCors({
    origins: corsOrigins,
    allowHeaders: [
      "content-type",
      "x-api-key",
      "authorization",
      "mcp-protocol-version",
      "mcp-session-id",
      "last-event-id",
    ],
    exposeHeaders: ["retry-after", "etag", "mcp-session-id", "mcp-protocol-version"],
  });
  const mcp = mcpHttpHandler(
    defineMcp(
      { name: "charging-sites", version: VERSION, instructions: INSTRUCTIONS },
      chargingTools(options),
      log,
    ),
  );
  const routes = chargingRoutes(options, mcp, {
    cacheControl: cacheControlFor(gate !== undefined),
    encodings: options.encodings ?? ["gzip"],
    openApi: chargingOpenApi(gate !== undefined),
  });

  const guarded = async (request: Request, peer: string | undefined): Promise<Response> => {
    const preflight = cors.preflight(request);
    if (preflight) return preflight;
    const decision = await limiter.hit(clientKey(request, peer, trustedProxies));
    if (!decision.allowed) {
      const wait = String(decision.retryAfterSeconds);
      throw new ApiError(
        "RATE_LIMITED",
        `Over ${ratePerMinute} requests per minute from your address; retry in ${wait} s`,
        { headers: { "retry-after": wait } },
      );
    }
    // Liveness probes carry no key: /healthz stays open (it reveals only the stage number), and
    // so does the OpenAPI document, which says how to authenticate.
    const url = new URL(request.url);
    if (gate && url.pathname !== "/healthz" && url.pathname !== OPENAPI_PATH) {
      const verdict = await gate(request);
      if (verdict !== "ok") {
        throw new ApiError(
          "UNAUTHORIZED",
          verdict === "missing"
            ? "An API key is required: send it in the x-api-key header"
            : "The API key is not valid: check the x-api-key header",
          { headers: { "www-authenticate": 'Bearer realm="charging"' } },
        );
      }
    }
    const capped = request.body ? await withBodyCap(request, maxBodyBytes) : request;
    const response = await routes(capped, url);
    if (!response) throw new ApiError("NOT_FOUND", NO_ROUTE);
    return response;
  };

  return async (request, context) => {
    let response: Response;
    try {
      response = await guarded(request, context?.clientAddress);
    } catch (err) {
      // A client that hung up mid-body is ordinary traffic, not an unexpected failure.
      if (!(err instanceof ApiError) && !request.signal.aborted)
        log(`charging: unexpected ${err instanceof Error ? err.message : String(err)}`);
      response = toErrorResponse(err);
    }
    return cors.apply(response, request);
  };
}
