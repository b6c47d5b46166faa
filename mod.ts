/**
 * Public entry: each service's handler factory and the shared building blocks.
 * No side effects on import.
 * @module
 */
export {
  ApiError,
  ERRORS,
  type ErrorCode,
  type ErrorEnvelope,
  envelope,
  errorResponse,
  isApiError,
} from "./src/shared/errors.ts";
export {
  createRateLimiter,
  createSharedRateLimiter,
  type RateDecision,
  type RateLimiter,
  type RateLimitStore,
} from "./src/shared/http/rate-limit.ts";
export { type FetchHandler, json, type RequestContext } from "./src/shared/http/respond.ts";
export { mcpHttpHandler } from "./src/shared/mcp/http.ts";
export { defineMcp } from "./src/shared/mcp/server.ts";
export { defineTool, type ToolDef } from "./src/shared/mcp/tool.ts";

// --- charging ---
export {
  type ChargingConfig,
  parseChargingEnv,
} from "./src/charging/config.ts";
export { type ChargingHandlerOptions, createChargingHandler } from "./src/charging/handler.ts";
export { chargingTools } from "./src/charging/mcp-tools.ts";
export { type ChargingServices, createChargingServices } from "./src/charging/services.ts";
export { isSnapshot, openSnapshot, type Snapshot } from "./src/charging/snapshot/read.ts";
export { SnapshotBuilder, snapshotOf } from "./src/charging/snapshot/write.ts";
export { createStore, type SiteQuery, type Store, storeOfSites } from "./src/charging/store.ts";

// --- seo ---
export * from "./src/seo/mod.ts";
export { runAudit } from "./src/seo/audit/run-audit.ts";
export { createSeoMcp } from "./src/seo/server.ts";
export { createSeoTools } from "./src/seo/tools/mod.ts";
