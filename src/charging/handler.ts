/**
 * The charging-site API as one Fetch handler: CORS preflight, per-client rate limit, the
 * optional key gate, the body cap, then the route table (routes.ts). It never throws: anything unexpected
 * becomes INTERNAL without details, and every answer, errors included, carries CORS headers.
 * @module
 */

import { VERSION } from "../shared/build-info.ts";
import { ApiError, toErrorResponse } from "../shared/errors.ts";
import { createKeyGate, type KeyGate } from "../shared/http/api-key.ts";
import { withBodyCap } from "../shared/http/body-limit.ts";
import { clientKey } from "../shared/http/client-ip.ts";
import type { Encoding } from "./compress.ts";
import { type Cors, createCors } from "../shared/http/cors.ts";
import { createRateLimiter, type RateLimiter } from "../shared/http/rate-limit.ts";
import type { FetchHandler } from "../shared/http/respond.ts";
import { describeRoutes, openPaths, type Route, routeTable } from "../shared/http/route-table.ts";
import { mcpHttpHandler } from "../shared/mcp/http.ts";
import { defineMcp } from "../shared/mcp/server.ts";
import { chargingTools } from "./mcp-tools.ts";
import { chargingOpenApi } from "./openapi.ts";
import { chargingRouteTable } from "./routes.ts";
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

/** A static cut may be reused for 5 minutes; behind a key gate only by the client itself. */
const cacheControlFor = (gated: boolean) => `${gated ? "private" : "public"}, max-age=300`;

function corsOf(origins: "*" | readonly string[]): Cors {
  return createCors({
    origins,
    allowHeaders: ["content-type", "x-api-key", "authorization", "mcp-protocol-version", "mcp-session-id", "last-event-id"],
    exposeHeaders: ["retry-after", "etag", "mcp-session-id", "mcp-protocol-version"],
  });
}

function limiterOf(options: ChargingHandlerOptions, ratePerMinute: number): RateLimiter {
  if (options.rateLimiter) return options.rateLimiter;
  const { maxClients = 50_000, now } = options;
  return createRateLimiter({ limit: ratePerMinute, windowMs: 60_000, maxClients, ...(now ? { now } : {}) });
}

function routesOf(options: ChargingHandlerOptions, gated: boolean, log: (line: string) => void): Route<URL>[] {
  const server = defineMcp(
    { name: "charging-sites", version: VERSION, instructions: INSTRUCTIONS },
    chargingTools(options),
    log,
  );
  return chargingRouteTable(options, mcpHttpHandler(server), {
    cacheControl: cacheControlFor(gated),
    encodings: options.encodings ?? ["gzip"],
    openApi: chargingOpenApi(gated),
  });
}

/**
 * What every request passes before its route, in order: the rate limit, the key gate (except
 * on the table's open routes), the body cap. Each refusal is an ApiError.
 */
class Guards {
  readonly #limiter: RateLimiter;
  readonly #ratePerMinute: number;
  readonly #trustedProxies: number;
  readonly #maxBodyBytes: number;
  readonly #gate: KeyGate | undefined;
  readonly #isOpen: (pathname: string) => boolean;

  constructor(options: ChargingHandlerOptions, isOpen: (pathname: string) => boolean) {
    const { ratePerMinute = DEFAULT_RATE_PER_MINUTE, apiKeys = [] } = options;
    this.#ratePerMinute = ratePerMinute;
    this.#limiter = limiterOf(options, ratePerMinute);
    this.#trustedProxies = options.trustedProxies ?? 0;
    this.#maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.#gate = apiKeys.length > 0 ? createKeyGate(apiKeys) : undefined;
    this.#isOpen = isOpen;
  }

  /** The request to route: `request` itself, or with its body capped. */
  async pass(request: Request, url: URL, peer: string | undefined): Promise<Request> {
    const decision = await this.#limiter.hit(clientKey(request, peer, this.#trustedProxies));
    if (!decision.allowed) throw this.#overLimit(decision.retryAfterSeconds);
    if (this.#gate && !this.#isOpen(url.pathname)) await this.#checkKey(this.#gate, request);
    return request.body ? withBodyCap(request, this.#maxBodyBytes) : request;
  }

  #overLimit(retryAfterSeconds: number): ApiError {
    const wait = String(retryAfterSeconds);
    return new ApiError(
      "RATE_LIMITED",
      `Over ${this.#ratePerMinute} requests per minute from your address; retry in ${wait} s`,
      { headers: { "retry-after": wait } },
    );
  }

  async #checkKey(gate: KeyGate, request: Request): Promise<void> {
    const verdict = await gate(request);
    if (verdict === "ok") return;
    throw new ApiError(
      "UNAUTHORIZED",
      verdict === "missing"
        ? "An API key is required: send it in the x-api-key header"
        : "The API key is not valid: check the x-api-key header",
      { headers: { "www-authenticate": 'Bearer realm="charging"' } },
    );
  }
}

/** Creates the handler. */
export function createChargingHandler(options: ChargingHandlerOptions): FetchHandler {
  const log = options.log ?? (() => {});
  const cors = corsOf(options.corsOrigins ?? "*");
  const gated = (options.apiKeys ?? []).length > 0;
  const table = routesOf(options, gated, log);
  // Liveness probes carry no key: /healthz stays open (it reveals only the stage number), and
  // so does the OpenAPI document, which says how to authenticate.
  const guards = new Guards(options, openPaths(table));
  const dispatch = routeTable(table);
  const noRoute = `No such route; the API has ${describeRoutes(table)}`;

  const answer = async (request: Request, peer: string | undefined): Promise<Response> => {
    const preflight = cors.preflight(request);
    if (preflight) return preflight;
    const url = new URL(request.url);
    const response = await dispatch(await guards.pass(request, url, peer), url, url);
    if (!response) throw new ApiError("NOT_FOUND", noRoute);
    return response;
  };

  return async (request, context) => {
    let response: Response;
    try {
      response = await answer(request, context?.clientAddress);
    } catch (err) {
      // A client that hung up mid-body is ordinary traffic, not an unexpected failure.
      if (!(err instanceof ApiError) && !request.signal.aborted)
        log(`charging: unexpected ${err instanceof Error ? err.message : String(err)}`);
      response = toErrorResponse(err);
    }
    return cors.apply(response, request);
  };
}
