/**
 * The shared building blocks each package's library entry re-exports: the error envelope, the
 * rate limiters, JSON answers and tool definitions. Their types reach no MCP SDK type (the
 * published declarations carry valibot's few types they use, and nothing else third-party).
 * No side effects on import.
 * @module
 */
export { ApiError, ERRORS, type ErrorCode, type ErrorEnvelope, envelope, errorResponse, isApiError } from "./errors.ts";
export {
  createRateLimiter,
  createSharedRateLimiter,
  type RateDecision,
  type RateLimiter,
  type RateLimitStore,
} from "./http/rate-limit.ts";
export { type FetchHandler, json, type RequestContext } from "./http/respond.ts";
export { defineTool, type ToolDef } from "./mcp/tool.ts";
