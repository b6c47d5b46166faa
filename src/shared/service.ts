/**
 * A service over HTTP, declared once: the rows every service has (liveness, the OpenAPI
 * document, POST /mcp) around the rows of its operations and pages, behind the one guard
 * pipeline (http/pipeline.ts), with the 404 message and the failure log drawn from the same
 * table. A service's handler.ts passes its policy, its MCP endpoint and its operations' rows;
 * the OpenAPI document's fixed operations (http/openapi-fixed.ts) describe the same three rows.
 * @module
 */
import { STAGE } from "./build-info.ts";
import type { Cors } from "./http/cors.ts";
import { createPipeline, type KeyGuard } from "./http/pipeline.ts";
import { createRateLimiter, type RateLimiter } from "./http/rate-limit.ts";
import { type FetchHandler, json } from "./http/respond.ts";
import { describeRoutes, type Route } from "./http/route-table.ts";
import { toJsonRpcError } from "./mcp/http.ts";
import { messageOf } from "./errors.ts";

/** The per-client rate limit; none when `perMinute` is 0. */
export interface ServiceRate {
  perMinute: number;
  /** The limiter to count with (e.g. one shared through Redis); default: in memory, per process. */
  limiter?: RateLimiter | undefined;
  /** Clients the in-memory limiter remembers at once (default 50,000). */
  maxClients?: number | undefined;
  /** Reverse proxies in front whose `x-forwarded-for` entry is trusted (default 0). */
  trustedProxies?: number | undefined;
  /** Milliseconds clock of the in-memory limiter. */
  now?: (() => number) | undefined;
}

export interface ServiceOptions {
  /** The prefix of logged failures (`charging: unexpected ...`). */
  name: string;
  /** How the 404 message names the service (`the API`). */
  noun: string;
  /** The rows of the operations' REST faces, after /healthz (first match wins). */
  operations: readonly Route<URL>[];
  /** The service's own pages, after every other row. */
  pages?: readonly Route<URL>[];
  /** POST /mcp, every method (the endpoint answers 405 itself); its failures answer as JSON-RPC errors. */
  mcp: FetchHandler;
  /** GET /api/v1/openapi.json: its answer made from the whole table; `open`: readable without the key. */
  openApi: { open: boolean; answer: (routes: readonly Route<URL>[]) => Route<URL>["handle"] };
  cors: Cors;
  rate: ServiceRate;
  /** No gate when absent or without keys. */
  key?: KeyGuard | undefined;
  maxBodyBytes?: number | undefined;
  /** Where unexpected failures are reported. */
  log: (line: string) => void;
  /** What a failure's message must lose before it is logged (keys the request brought). */
  scrub?: (message: string, request: Request) => string;
}

/** Liveness: open, unmetered and never cached, so a load balancer's probe is always answered. */
const health = () => json({ ok: true, stage: STAGE }, { headers: { "cache-control": "no-store" } });

/** The whole table: liveness, the operations, the document, MCP, then the pages. */
function tableOf(options: ServiceOptions): Route<URL>[] {
  let document: Route<URL>["handle"] = () => new Response(null, { status: 503 });
  const routes: Route<URL>[] = [
    { method: "GET", path: "/healthz", handle: health, open: true, unmetered: true },
    ...options.operations,
    { method: "GET", path: "/api/v1/openapi.json", handle: (...args) => document(...args), open: options.openApi.open },
    { method: "POST", path: "/mcp", handle: options.mcp, everyMethod: true, failure: toJsonRpcError },
    ...(options.pages ?? []),
  ];
  // The document describes the table it sits in.
  document = options.openApi.answer(routes);
  return routes;
}

function limiterOf({ perMinute, limiter, maxClients = 50_000, trustedProxies, now }: ServiceRate) {
  if (perMinute <= 0) return undefined;
  const counting = limiter ?? createRateLimiter({ limit: perMinute, windowMs: 60_000, maxClients, ...(now ? { now } : {}) });
  return { limiter: counting, perMinute, trustedProxies };
}

/** Creates the service's Fetch handler. */
export function createService(options: ServiceOptions): FetchHandler {
  const routes = tableOf(options);
  const scrub = options.scrub ?? ((message: string) => message);
  return createPipeline({
    routes,
    cors: options.cors,
    rateLimit: limiterOf(options.rate),
    key: options.key,
    maxBodyBytes: options.maxBodyBytes,
    noRoute: `No such route; ${options.noun} has ${describeRoutes(routes)}`,
    unexpected: (err, request) =>
      options.log(`${options.name}: unexpected ${scrub(messageOf(err), request)}`),
  });
}
