/**
 * The SEO service as one Fetch handler, whatever carries it: the stdio bridge of
 * `seo-audit-mcp mcp`, the Node gateway (`seo-audit-mcp gateway`) and the Workers gateway.
 * Routes: POST /mcp (stateless Streamable HTTP, the five tools), GET /api/v1/page-report?url=,
 * GET /api/v1/keyword-ideas?q=, GET /api/v1/openapi.json and GET /healthz.
 *
 * Guards, in order: CORS preflight; /healthz (open); per-client rate limit; the optional
 * bearer token; the body cap. What differs between places is injected by the adapter: the
 * crawl capability (without it seo_audit_site answers LOCAL_ONLY), the egress guard's DNS and
 * connect-time checks, the client address. BYOK headers replace the deployer's keys for one
 * request. Nothing throws out of it: errors are the typed envelope, or a JSON-RPC error on
 * /mcp, and every answer carries CORS headers.
 *
 * Start-up loads none of the tools: `initialize` and `tools/list` are answered from the
 * listing (embedded at build time), and the tools, REST routes and OpenAPI document are
 * imported on their first use.
 * @module
 */
import { STAGE } from "../shared/build-info.ts";
import { ApiError, toErrorResponse } from "../shared/errors.ts";
import { bearerToken, createKeyGate, type KeyGate } from "../shared/http/api-key.ts";
import { withBodyCap } from "../shared/http/body-limit.ts";
import { clientKey } from "../shared/http/client-ip.ts";
import { type Cors, createCors } from "../shared/http/cors.ts";
import { createRateLimiter } from "../shared/http/rate-limit.ts";
import { type FetchHandler, json } from "../shared/http/respond.ts";
import { mcpHttpHandler, toJsonRpcError } from "../shared/mcp/http.ts";
import type { ToolDef } from "../shared/mcp/tool.ts";
import { once } from "../shared/once.ts";
import { redact, type SeoConfig, withRequestKeys } from "./config.ts";
import { BYOK_HEADER_NAMES, requestKeys } from "./http/byok.ts";
import { type GatewayEgress, gatewayPolicy, guardNetwork, guardUrlTool } from "./http/egress.ts";
import { REST_PATHS } from "./http/paths.ts";
import { BUILT_LISTING, listSeoTool, SERVER_INFO } from "./mcp-info.ts";
import type { RankStore } from "./providers/tranco.ts";
import type { ProviderDeps } from "./providers/types.ts";
import type { CrawlCapability, SeoToolDeps } from "./tools/mod.ts";

export interface SeoHandlerOptions {
  /** fetch (for the deployer's provider endpoints), clock and sleep. */
  provider: ProviderDeps;
  /** The deployer's keys and endpoints: the fallback when a request brings no key. */
  config: SeoConfig;
  /** The site crawl; only local adapters pass it. */
  crawl?: CrawlCapability;
  rankStore?: RankStore;
  /**
   * `"open"`: tools reach any address (stdio: auditing localhost is the point). Otherwise the
   * egress guard, with what the runtime offers it.
   */
  egress: "open" | GatewayEgress;
  /** Bearer token required on every route but /healthz and preflight. */
  authToken?: string;
  /** Origins CORS reflects (default `*`). */
  allowedOrigins?: "*" | readonly string[];
  /** Requests per minute per client; no limit when unset or 0. */
  ratePerMinute?: number;
  /** Reverse proxies in front whose `x-forwarded-for` entry is trusted (default 0). */
  trustedProxies?: number;
  /** Request-body cap in bytes (default 65,536). */
  maxBodyBytes?: number;
  /** Milliseconds clock for the rate limiter. */
  now?: () => number;
  /** Where unexpected failures are reported (keys scrubbed). */
  log?: (line: string) => void;
}

export const DEFAULT_MAX_BODY_BYTES = 65_536;

const NO_ROUTE =
  "No such route; the gateway has GET /healthz, POST /mcp, GET /api/v1/page-report?url=, GET /api/v1/keyword-ideas?q= and GET /api/v1/openapi.json";

type Route = "health" | "mcp" | "openapi" | "rest";

const ROUTES = new Map<string, Route>([
  ["/healthz", "health"],
  ["/mcp", "mcp"],
  ["/api/v1/openapi.json", "openapi"],
  ...Object.values(REST_PATHS).map((path): [string, Route] => [path, "rest"]),
]);

const toolTable = once(() => import("./tools/mod.ts"));
const sdkServer = once(() => import("../shared/mcp/server.ts"));
const restRoutes = once(() => import("./http/rest.ts"));
const openApi = once(() => import("./http/openapi.ts"));

/**
 * Evaluates now the code that is otherwise loaded on first use. For the Workers adapter: a
 * Worker's global scope has its own start-up allowance, while a request gets 10 ms of CPU on
 * the free plan, which evaluating the SDK and the tools inside the first call could exceed.
 */
export async function preloadSeoCode(): Promise<void> {
  await Promise.all([toolTable(), sdkServer(), restRoutes(), openApi(), import("../shared/mcp/sdk-http.ts")]);
}

type ToolsFor = (request: Request) => () => Promise<readonly ToolDef[]>;

/** The tools bound to one request: its keys, and the egress guard unless egress is open. */
function toolBinder(options: SeoHandlerOptions, log: (line: string) => void): ToolsFor {
  const { egress, provider } = options;
  const policy = egress === "open" ? undefined : gatewayPolicy(options.config, egress);
  const bind = (create: (deps: SeoToolDeps) => ToolDef[], request: Request): ToolDef[] => {
    const config = withRequestKeys(options.config, requestKeys(request.headers));
    const deps = { ...options, config, log: (line: string) => log(redact(line, config.secrets)) };
    if (!policy || egress === "open") return create(deps);
    const network = guardNetwork(policy, egress, provider.fetch);
    const tools = create({ ...deps, provider: { ...provider, fetch: network.fetch } });
    return tools.map((tool) => (tool.name === "seo_page_report" ? guardUrlTool(tool, network) : tool));
  };
  return (request) => once(async () => bind((await toolTable()).createSeoTools, request));
}

function createGuards(options: SeoHandlerOptions) {
  const { ratePerMinute = 0, trustedProxies = 0, now } = options;
  const limiter =
    ratePerMinute > 0
      ? createRateLimiter({ limit: ratePerMinute, windowMs: 60_000, maxClients: 50_000, ...(now ? { now } : {}) })
      : undefined;
  const gate: KeyGate | undefined = options.authToken ? createKeyGate([options.authToken], bearerToken) : undefined;

  return async (request: Request, peer: string | undefined): Promise<void> => {
    if (limiter) {
      const decision = await limiter.hit(clientKey(request, peer, trustedProxies));
      if (!decision.allowed) {
        const wait = String(decision.retryAfterSeconds);
        throw new ApiError("RATE_LIMITED", `Over ${ratePerMinute} requests per minute from your address; retry in ${wait} s`, {
          headers: { "retry-after": wait },
        });
      }
    }
    const verdict = gate ? await gate(request) : "ok";
    if (verdict !== "ok") {
      throw new ApiError(
        "UNAUTHORIZED",
        verdict === "missing"
          ? "This gateway needs its access token: send Authorization: Bearer <token>"
          : "The access token is not valid: check the Authorization: Bearer header",
        { headers: { "www-authenticate": 'Bearer realm="seo-gateway"' } },
      );
    }
  };
}

function gatewayCors(origins: "*" | readonly string[]): Cors {
  return createCors({
    origins,
    allowMethods: ["GET", "POST", "OPTIONS"],
    allowHeaders: [
      "content-type",
      "accept",
      "authorization",
      "mcp-protocol-version",
      "mcp-session-id",
      "last-event-id",
      ...BYOK_HEADER_NAMES,
    ],
    exposeHeaders: ["retry-after", "www-authenticate", "mcp-protocol-version"],
  });
}

const onlyGet = (request: Request, path: string) => {
  if (request.method !== "GET" && request.method !== "HEAD") {
    throw new ApiError("METHOD_NOT_ALLOWED", `${path} answers GET only`, { headers: { allow: "GET, HEAD" } });
  }
};

/** Creates the handler. */
export function createSeoHandler(options: SeoHandlerOptions): FetchHandler {
  const { maxBodyBytes = DEFAULT_MAX_BODY_BYTES, log = () => {} } = options;
  const toolsFor = toolBinder(options, log);
  const defined = once(async () => (await toolTable()).createSeoTools({ ...options, log }));
  const listing = once(async () => BUILT_LISTING ?? (await defined()).map(listSeoTool));
  const factory = once(async () => (await sdkServer()).defineLazyMcp(SERVER_INFO, { listing, load: defined }, log));
  const mcp = mcpHttpHandler({ info: SERVER_INFO, listing, factory }, { toolsFor });
  const guard = createGuards(options);
  const cors = gatewayCors(options.allowedOrigins ?? "*");
  const openapi = once(async () => (await openApi()).seoOpenApi(await defined(), Boolean(options.authToken)));

  const routeTo = async (route: Route, request: Request, url: URL): Promise<Response> => {
    if (route === "mcp") return mcp(request.body ? await withBodyCap(request, maxBodyBytes) : request);
    if (route === "health") return json({ ok: true, stage: STAGE });
    if (route === "openapi") {
      onlyGet(request, url.pathname);
      return json(await openapi());
    }
    const [{ serveRest }, tools] = await Promise.all([restRoutes(), toolsFor(request)()]);
    return serveRest(request, url, tools);
  };

  const serve = async (request: Request, peer: string | undefined, url: URL, route: Route | undefined) => {
    const preflight = cors.preflight(request);
    if (preflight) return preflight;
    if (route === "health") {
      onlyGet(request, url.pathname);
      return routeTo(route, request, url);
    }
    await guard(request, peer);
    if (route === undefined) throw new ApiError("NOT_FOUND", NO_ROUTE);
    return routeTo(route, request, url);
  };

  return async (request, context) => {
    const url = new URL(request.url);
    const route = ROUTES.get(url.pathname);
    let response: Response;
    try {
      response = await serve(request, context?.clientAddress, url, route);
    } catch (err) {
      if (!(err instanceof ApiError) && !request.signal.aborted) {
        const { secrets } = withRequestKeys(options.config, requestKeys(request.headers));
        log(`seo: unexpected ${redact(err instanceof Error ? err.message : String(err), secrets)}`);
      }
      response = route === "mcp" ? toJsonRpcError(err) : toErrorResponse(err);
    }
    return cors.apply(response, request);
  };
}
