/**
 * The SEO MCP server over a tool table built up front (in-process use and tests; the handler
 * defines the same server lazily).
 * @module
 */
import { defineMcp, type McpDefinition } from "../shared/mcp/server.ts";
import { listSeoTool, serverInfo } from "./mcp-info.ts";
import { createSeoTools, reportResources, type SeoToolDeps } from "./tools/mod.ts";

export function createSeoMcp(deps: SeoToolDeps): McpDefinition {
  const read = deps.crawl ? reportResources(deps.crawl.reports) : undefined;
  return defineMcp(serverInfo(Boolean(deps.crawl)), createSeoTools(deps), deps.log, listSeoTool, read);
}
