/**
 * The SEO service as one Fetch handler, whatever carries it: the stdio bridge of
 * `seo-audit-mcp mcp`, the Node gateway (`seo-audit-mcp gateway`) and the Workers gateway.
 * Routes (the service kernel's, src/shared/service.ts): POST /mcp (stateless Streamable HTTP,
 * the five tools), GET /api/v1/page-report?url=, GET /api/v1/keyword-ideas?q=,
 * GET /api/v1/openapi.json and GET /healthz.
 *
 * Guards, in the shared pipeline's order: CORS preflight; per-client rate limit and the optional
 * bearer token (both skipped on /healthz); the body cap; the route's methods. What differs between places is injected by the adapter: the
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
import { bearerToken } from "../shared/http/api-key.ts";
import { type FetchHandler, json } from "../shared/http/respond.ts";
import type { Route } from "../shared/http/route-table.ts";
import { mcpHttpHandler } from "../shared/mcp/http.ts";
import type { ToolDef } from "../shared/mcp/tool.ts";
import { once } from "../shared/once.ts";
import { createService } from "../shared/service.ts";
import { redact, withRequestKeys } from "./config.ts";
import { requestKeys } from "./http/byok.ts";
import { type GatewayEgress, gatewayPolicy, guardNetwork, guardUrlTool } from "./http/egress.ts";
import { BEARER_REFUSALS, gatewayCors } from "./http/guards.ts";
import { REST_ROUTES } from "./http/paths.ts";
import { BUILT_LISTING, listSeoTool, serverInfo } from "./mcp-info.ts";
import type { SeoToolDeps } from "./tools/mod.ts";
import type { GatewaySettings } from "./http/gateway-env.ts";

/**
 * The tools' dependencies (`config` is the deployer's: the fallback when a request brings no
 * key), the gateway's settings, and what the runtime offers the egress guard.
 */
export interface SeoHandlerOptions extends Omit<SeoToolDeps, "log">, Partial<GatewaySettings> {
  /**
   * `"open"`: tools reach any address (stdio: auditing localhost is the point). Otherwise the
   * egress guard, with what the runtime offers it.
   */
  egress: "open" | GatewayEgress;
  /** Request-body cap in bytes (default 65,536). */
  maxBodyBytes?: number;
  /** Milliseconds clock for the rate limiter. */
  now?: () => number;
  /** Where unexpected failures are reported (keys scrubbed). */
  log?: (line: string) => void;
}

const toolTable = once(() => import("./tools/mod.ts"));
const sdkServer = once(() => import("../shared/mcp/server.ts"));
const restRoutes = once(() => import("./http/rest.ts"));
const openApi = once(() => import("../shared/http/openapi.ts"));

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

/** The answers of the SEO rows, with the state they share (loaded once, on first use). */
function answersOf(options: SeoHandlerOptions, log: (line: string) => void) {
  const toolsFor = toolBinder(options, log);
  const defined = once(async () => (await toolTable()).createSeoTools({ ...options, log }));
  const listing = once(async () => BUILT_LISTING ?? (await defined()).map(listSeoTool));
  const info = serverInfo(Boolean(options.crawl));
  const reports = options.crawl?.reports;
  const read = reports ? async (uri: string) => (await toolTable()).reportResources(reports)(uri) : undefined;
  const factory = once(async () =>
    (await sdkServer()).defineLazyMcp(info, { listing, load: defined, ...(read ? { read } : {}) }, log),
  );
  const document = (routes: readonly Route<URL>[]) => {
    const made = once(async () => {
      const [{ serviceOpenApi }, { gatewayDoc }, tools] = await Promise.all([openApi(), restRoutes(), defined()]);
      const operations = tools.filter((tool) => tool.rest).map(({ rest, output }) => ({ rest, output }));
      return serviceOpenApi(gatewayDoc(Boolean(options.authToken), routes), operations);
    });
    return async () => json(await made());
  };
  const rest = async (request: Request, _params: unknown, url: URL) => {
    const [{ serveRest }, tools] = await Promise.all([restRoutes(), toolsFor(request)()]);
    return serveRest(request, url, tools);
  };
  return { mcp: mcpHttpHandler({ info, listing, factory }, { toolsFor }), document, rest };
}

/**
 * Creates the handler: the service kernel over the SEO rows. Unknown paths are guarded like
 * any other (they tell nothing to a client without the token).
 */
export function createSeoHandler(options: SeoHandlerOptions): FetchHandler {
  const log = options.log ?? (() => {});
  const answers = answersOf(options, log);
  const { ratePerMinute = 0, trustedProxies, now } = options;
  return createService({
    name: "seo",
    noun: "the gateway",
    // The REST paths are known before any tool loads (start-up loads none).
    operations: Object.values(REST_ROUTES).map(({ path, required }) => ({ method: "GET", path, required, handle: answers.rest })),
    mcp: answers.mcp,
    openApi: { open: false, answer: answers.document },
    cors: gatewayCors(options.allowedOrigins ?? "*"),
    rate: { perMinute: ratePerMinute, trustedProxies, now },
    key: options.authToken ? { keys: [options.authToken], present: bearerToken, ...BEARER_REFUSALS } : undefined,
    maxBodyBytes: options.maxBodyBytes,
    log,
    // A failure is logged with this request's keys scrubbed.
    scrub: (message, request) => redact(message, withRequestKeys(options.config, requestKeys(request.headers)).secrets),
  });
}
