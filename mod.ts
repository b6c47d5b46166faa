/**
 * Public entry: each service's handler factory and the shared building blocks.
 * No side effects on import.
 * @module
 */
export {
  ApiError,
  type ErrorCode,
  type ErrorEnvelope,
  envelope,
  errorResponse,
} from "./src/shared/errors.ts";
export { type FetchHandler, json, type RequestContext } from "./src/shared/http/respond.ts";
export { mcpHttpHandler } from "./src/shared/mcp/http.ts";
export { defineMcp } from "./src/shared/mcp/server.ts";
export { createStdioBridge, type StdioBridge } from "./src/shared/mcp/stdio-bridge.ts";
export { createGuardedLookup } from "./src/shared/net/lookup.ts";
export { defineTool, type ToolDef, ToolError } from "./src/shared/mcp/tool.ts";

// --- charging ---
export {
  type ChargingConfig,
  ConfigError as ChargingConfigError,
  parseChargingEnv,
} from "./src/charging/config.ts";
export { type ChargingHandlerOptions, createChargingHandler } from "./src/charging/handler.ts";
export { chargingTools } from "./src/charging/mcp-tools.ts";
export { type ChargingServices, createChargingServices } from "./src/charging/services.ts";

// --- seo ---
export { runAudit } from "./src/seo/audit/run-audit.ts";
export {
  ConfigError as SeoConfigError,
  loadConfig as loadSeoConfig,
  redact,
  type SeoConfig,
} from "./src/seo/config.ts";
export type { HttpRequest } from "./src/seo/crawl/fetch-page.ts";
export { createSeoHandler, type SeoHandlerOptions } from "./src/seo/handler.ts";
export { BYOK_HEADERS } from "./src/seo/http/byok.ts";
export type { GatewayEgress } from "./src/seo/http/egress.ts";
export { type GatewaySettings, parseGatewayEnv } from "./src/seo/http/gateway-env.ts";
export type { RankStore } from "./src/seo/providers/tranco.ts";
export { abortableSleep, type ProviderDeps } from "./src/seo/providers/types.ts";
export { createSeoMcp, SERVER_NAME as SEO_SERVER_NAME } from "./src/seo/server.ts";
export { type CrawlCapability, createSeoTools, type SeoToolDeps } from "./src/seo/tools/mod.ts";
export { VERSION } from "./src/shared/build-info.ts";
