/**
 * The SEO service as one Fetch handler, whatever carries it: the stdio bridge of
 * `seo-audit-mcp mcp`, the Node gateway (`seo-audit-mcp gateway`) and the Workers gateway.
 * Routes (the table `SEO_ROUTES`, run by the shared `routeTable`, as the charging API's): POST /mcp (stateless Streamable HTTP, the five tools),
 * GET /api/v1/page-report?url=, GET /api/v1/keyword-ideas?q=, GET /api/v1/openapi.json and
 * GET /healthz.
 *
 * Guards, in order: CORS preflight; /healthz (open); per-client rate limit; the optional
 * bearer token; the route's methods; the body cap. What differs between places is injected by the adapter: the
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
import { withBodyCap } from "../shared/http/body-limit.ts";
import { type FetchHandler, json } from "../shared/http/respond.ts";
import { openPaths, type Route, routeTable } from "../shared/http/route-table.ts";
import { mcpHttpHandler, toJsonRpcError } from "../shared/mcp/http.ts";
import type { ToolDef } from "../shared/mcp/tool.ts";
import { once } from "../shared/once.ts";
import { redact, type SeoConfig, withRequestKeys } from "./config.ts";
import { requestKeys } from "./http/byok.ts";
import { type GatewayEgress, gatewayPolicy, guardNetwork, guardUrlTool } from "./http/egress.ts";
import { createGuards, gatewayCors } from "./http/guards.ts";
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

/** What answers a route: a method of `SeoRoutes`. */
type Answer = "health" | "mcp" | "openapi" | "rest";

/** One row of the route table. */
export interface SeoRoute {
  /** GET also answers HEAD; others get 405 with an allow header. */
  method: "GET" | "POST";
  path: string;
  /** How the no-route message names it. */
  shown: string;
  answer: Answer;
  /** Open routes skip the rate limit and the access token. */
  open?: true;
  /** The route answers every method itself (/mcp refuses the others as a JSON-RPC error). */
  everyMethod?: true;
}

const MCP_PATH = "/mcp";

/** Every route of the SEO handler: adding one is a row here and a method of `SeoRoutes`. */
export const SEO_ROUTES: readonly SeoRoute[] = [
  { method: "GET", path: "/healthz", shown: "GET /healthz", answer: "health", open: true },
  { method: "POST", path: MCP_PATH, shown: "POST /mcp", answer: "mcp", everyMethod: true },
  { method: "GET", path: REST_PATHS.pageReport, shown: `GET ${REST_PATHS.pageReport}?url=`, answer: "rest" },
  { method: "GET", path: REST_PATHS.keywordIdeas, shown: `GET ${REST_PATHS.keywordIdeas}?q=`, answer: "rest" },
  { method: "GET", path: "/api/v1/openapi.json", shown: "GET /api/v1/openapi.json", answer: "openapi" },
];

const shownRoutes = SEO_ROUTES.map((route) => route.shown);
/** The 404 message: the table's routes, so it cannot fall behind them. */
export const NO_ROUTE = `No such route; the gateway has ${shownRoutes.slice(0, -1).join(", ")} and ${shownRoutes.at(-1)}`;

/** The table as the shared dispatcher runs it: each row answered by its method of `SeoRoutes`. */
const TABLE: readonly Route<SeoRoutes>[] = SEO_ROUTES.map((row) => ({
  ...row,
  handle: (request: Request, _params: unknown, routes: SeoRoutes) => routes[row.answer](request),
}));

/** The answers of one handler, with the state they share (loaded once, on first use). */
class SeoRoutes {
  readonly #options: SeoHandlerOptions;
  readonly #log: (line: string) => void;
  readonly #toolsFor: ToolsFor;
  readonly #mcp: FetchHandler;
  readonly #openapi: () => Promise<unknown>;
  readonly guard: ReturnType<typeof createGuards>;

  constructor(options: SeoHandlerOptions) {
    this.#options = options;
    const log = (this.#log = options.log ?? (() => {}));
    this.#toolsFor = toolBinder(options, log);
    const defined = once(async () => (await toolTable()).createSeoTools({ ...options, log }));
    const listing = once(async () => BUILT_LISTING ?? (await defined()).map(listSeoTool));
    const factory = once(async () => (await sdkServer()).defineLazyMcp(SERVER_INFO, { listing, load: defined }, log));
    this.#mcp = mcpHttpHandler({ info: SERVER_INFO, listing, factory }, { toolsFor: this.#toolsFor });
    this.#openapi = once(async () => (await openApi()).seoOpenApi(await defined(), Boolean(options.authToken)));
    this.guard = createGuards(options);
  }

  async health(): Promise<Response> {
    return json({ ok: true, stage: STAGE });
  }

  async mcp(request: Request): Promise<Response> {
    const { maxBodyBytes = DEFAULT_MAX_BODY_BYTES } = this.#options;
    return this.#mcp(request.body ? await withBodyCap(request, maxBodyBytes) : request);
  }

  async openapi(): Promise<Response> {
    return json(await this.#openapi());
  }

  async rest(request: Request): Promise<Response> {
    const [{ serveRest }, tools] = await Promise.all([restRoutes(), this.#toolsFor(request)()]);
    return serveRest(request, new URL(request.url), tools);
  }

  /** A failure as its route answers it; anything but an `ApiError` is logged (keys scrubbed). */
  failure(err: unknown, request: Request, jsonRpc: boolean | undefined): Response {
    if (!(err instanceof ApiError) && !request.signal.aborted) {
      const { secrets } = withRequestKeys(this.#options.config, requestKeys(request.headers));
      this.#log(`seo: unexpected ${redact(err instanceof Error ? err.message : String(err), secrets)}`);
    }
    return jsonRpc ? toJsonRpcError(err) : toErrorResponse(err);
  }
}

type Peer = string | undefined;

const dispatch = routeTable(TABLE);
const isOpen = openPaths(TABLE);

/**
 * One request through the table: guarded unless its path is open (an unknown path tells nothing
 * to a client without the token), then its route, 405 or 404. A failure is converted once, the
 * way its path answers: a JSON-RPC error on /mcp, the typed envelope elsewhere.
 */
async function answer(routes: SeoRoutes, request: Request, peer: Peer): Promise<Response> {
  const url = new URL(request.url);
  try {
    if (!isOpen(url.pathname)) await routes.guard(request, peer);
    return (await dispatch(request, url, routes)) ?? notFound();
  } catch (err) {
    return routes.failure(err, request, url.pathname === MCP_PATH);
  }
}

function notFound(): never {
  throw new ApiError("NOT_FOUND", NO_ROUTE);
}

/**
 * Creates the handler. Guards, in order: CORS preflight; rate limit and token (every route but
 * the open ones, and unknown paths); the route's methods; the route.
 */
export function createSeoHandler(options: SeoHandlerOptions): FetchHandler {
  const routes = new SeoRoutes(options);
  const cors = gatewayCors(options.allowedOrigins ?? "*");
  return async (request, context) => {
    const response = cors.preflight(request) ?? (await answer(routes, request, context?.clientAddress));
    return cors.apply(response, request);
  };
}
