/**
 * Public entry of the repository: both packages' library entries (packages/seo-audit-mcp,
 * packages/charging-sites), plus the MCP server plumbing, which is used from source only: its
 * types are the MCP SDK's, which the published packages' declarations do not carry. No side
 * effects on import.
 * @module
 */
export * from "./packages/seo-audit-mcp/mod.ts";
export * from "./packages/charging-sites/mod.ts";

export { mcpHttpHandler } from "./src/shared/mcp/http.ts";
export { defineMcp } from "./src/shared/mcp/server.ts";
export { createSeoMcp } from "./src/seo/server.ts";
