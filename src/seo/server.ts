/**
 * The SEO MCP server over a tool table built up front (in-process use and tests; the handler
 * defines the same server lazily).
 * @module
 */
import { defineMcp, type McpDefinition } from "../shared/mcp/server.ts";
import { listSeoTool, SERVER_INFO } from "./mcp-info.ts";
import { createSeoTools, type SeoToolDeps } from "./tools/mod.ts";

export { INSTRUCTIONS, SERVER_NAME } from "./mcp-info.ts";

export function createSeoMcp(deps: SeoToolDeps): McpDefinition {
  return defineMcp(SERVER_INFO, createSeoTools(deps), deps.log, listSeoTool);
}
