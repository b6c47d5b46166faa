/**
 * The one request pipeline of every service, declared once: CORS preflight, the per-client
 * rate limit (its quota in `RateLimit` / `RateLimit-Policy` headers on every metered answer),
 * the key or bearer gate, the query's encoding, the body cap, the route table, the error
 * conversion and the CORS headers. A service passes its policy (origins, limits, keys,
 * messages) and its route rows; it never writes the order again. Nothing throws out of it: anything unexpected becomes
 * INTERNAL without details, and every answer, errors included, carries CORS headers.
 * @module
 */
import { ApiError, toErrorResponse } from "../errors.ts";
import { createKeyGate, type KeyGate } from "./api-key.ts";
import { withBodyCap } from "./body-limit.ts";
import { clientKey } from "./client-ip.ts";
import { type Cors, withHeaders } from "./cors.ts";
import { assertWellEncoded } from "./query.ts";
import type { RateDecision, RateLimiter } from "./rate-limit.ts";
import type { FetchHandler } from "./respond.ts";
import { compilePath, type Route, routeTable } from "./route-table.ts";

/** Request-body cap of both services unless configured (64 KiB: an MCP call is far smaller). */
export const DEFAULT_MAX_BODY_BYTES = 65_536;

export interface RateLimitGuard {
  limiter: RateLimiter;
  /** The limit the refusal names. */
  perMinute: number;
  /** Reverse proxies in front whose `x-forwarded-for` entry is trusted (default 0). */
  trustedProxies?: number | undefined;
}

export interface KeyGuard {
  keys: readonly string[];
  /** Where a request carries its key (default: `x-api-key` or a Bearer authorization). */
  present?: (request: Request) => string | undefined;
  /** The `www-authenticate` realm. */
  realm: string;
  /** UNAUTHORIZED messages: no key sent, a key that is not one of `keys`. */
  missing: string;
  invalid: string;
}

export interface PipelineOptions {
  /** The service's route rows (first match wins). */
  routes: readonly Route<URL>[];
  cors: Cors;
  /** No limit when absent. */
  rateLimit?: RateLimitGuard | undefined;
  /** No gate when absent or without keys. */
  key?: KeyGuard | undefined;
  maxBodyBytes?: number | undefined;
  /** The NOT_FOUND message of a path no row has. */
  noRoute: string;
  /** Told of every failure that is not an `ApiError` (never of a client that hung up). */
  unexpected(err: unknown, request: Request): void;
}

/** What a guard leaves on the answer (the rate limit's headers), whatever the answer is. */
type Guard = (request: Request, url: URL, peer: string | undefined) => Promise<Record<string, string> | undefined>;

/**
 * The quota headers of the IETF draft httpapi-ratelimit-headers: the policy (q requests per
 * w seconds) and what is left of it (r requests, t seconds until the window resets), so a
 * client paces itself instead of learning the limit from a 429.
 */
function quotaHeaders(perMinute: number, decision: RateDecision): Record<string, string> {
  return {
    "ratelimit-policy": `"per-minute";q=${perMinute};w=60`,
    ratelimit: `"per-minute";r=${decision.remaining};t=${decision.retryAfterSeconds}`,
  };
}

function overLimit(perMinute: number, headers: Record<string, string>, retryAfterSeconds: number): ApiError {
  const wait = String(retryAfterSeconds);
  return new ApiError("RATE_LIMITED", `Over ${perMinute} requests per minute from your address; retry in ${wait} s`, {
    headers: { ...headers, "retry-after": wait },
  });
}

function limitGuard({ limiter, perMinute, trustedProxies = 0 }: RateLimitGuard): Guard {
  return async (request, _url, peer) => {
    const decision = await limiter.hit(clientKey(request, peer, trustedProxies));
    const headers = quotaHeaders(perMinute, decision);
    if (!decision.allowed) throw overLimit(perMinute, headers, decision.retryAfterSeconds);
    return headers;
  };
}

function keyGuard(guard: KeyGuard): Guard {
  const gate: KeyGate = createKeyGate(guard.keys, guard.present);
  return async (request) => {
    const verdict = await gate(request);
    if (verdict === "ok") return undefined;
    throw new ApiError("UNAUTHORIZED", verdict === "missing" ? guard.missing : guard.invalid, {
      headers: { "www-authenticate": `Bearer realm="${guard.realm}"` },
    });
  };
}

/** Whether a path belongs to a row carrying `flag` (unknown paths belong to none). */
function pathsWith(routes: readonly Route<URL>[], flag: (route: Route<URL>) => boolean) {
  const matchers = routes.filter(flag).map((route) => ({ route, match: compilePath(route.path) }));
  return (pathname: string) => matchers.find(({ match }) => match(pathname) !== undefined)?.route;
}

/** The rate limit (unless the row is unmetered): the quota headers, or a RATE_LIMITED throw. */
function meterOf(options: PipelineOptions): Guard {
  if (!options.rateLimit) return async () => undefined;
  const limit = limitGuard(options.rateLimit);
  const unmetered = pathsWith(options.routes, (route) => route.unmetered === true);
  return async (request, url, peer) => (unmetered(url.pathname) ? undefined : limit(request, url, peer));
}

/** The key gate (unless the row is open). */
function keyCheckOf(options: PipelineOptions): Guard {
  if (!options.key || options.key.keys.length === 0) return async () => undefined;
  const key = keyGuard(options.key);
  const open = pathsWith(options.routes, (route) => route.open === true);
  return async (request, url, peer) => (open(url.pathname) ? undefined : key(request, url, peer));
}

/** Creates the Fetch handler of `options.routes` behind the guards. */
export function createPipeline(options: PipelineOptions): FetchHandler {
  const { cors, noRoute, maxBodyBytes = DEFAULT_MAX_BODY_BYTES } = options;
  const meter = meterOf(options);
  const keyCheck = keyCheckOf(options);
  const dispatch = routeTable(options.routes);
  const failsOwnWay = pathsWith(options.routes, (route) => route.failure !== undefined);

  const answer = async (request: Request, url: URL, peer: string | undefined): Promise<Response> => {
    await keyCheck(request, url, peer);
    assertWellEncoded(url.search);
    const capped = request.body ? await withBodyCap(request, maxBodyBytes) : request;
    const response = await dispatch(capped, url, url);
    if (!response) throw new ApiError("NOT_FOUND", noRoute);
    return response;
  };

  const failure = (err: unknown, request: Request, url: URL): Response => {
    // A client that hung up mid-body is ordinary traffic, not an unexpected failure.
    if (!(err instanceof ApiError) && !request.signal.aborted) options.unexpected(err, request);
    return (failsOwnWay(url.pathname)?.failure ?? toErrorResponse)(err);
  };

  return async (request, context) => {
    const preflight = cors.preflight(request);
    if (preflight) return cors.apply(preflight, request);
    const url = new URL(request.url);
    let response: Response;
    // Every metered answer, a failure after the count included, tells the client its quota.
    let quota: Record<string, string> | undefined;
    try {
      quota = await meter(request, url, context?.clientAddress);
      response = await answer(request, url, context?.clientAddress);
    } catch (err) {
      response = failure(err, request, url);
    }
    return cors.apply(quota ? withHeaders(response, quota) : response, request);
  };
}
