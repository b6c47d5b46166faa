/**
 * The one place third-party packages enter the TypeScript code. Each service imports
 * from here, so the dependency surface of the whole repository is visible at a glance.
 * Keep each service's imports in its own section; add, never reorder, to avoid edit races.
 * @module
 */

// --- shared: MCP (official SDK v1.x) ---
export { Server as McpServer } from "@modelcontextprotocol/sdk/server/index.js";
export { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
export type { CallToolResult, Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
export {
  CallToolRequestSchema,
  ErrorCode as McpErrorCode,
  ListToolsRequestSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
export { toJsonSchema } from "@valibot/to-json-schema";
// --- shared: validation ---
export * as v from "valibot";

// --- charging ---
export { around as geoAround, distance as geoDistance } from "geokdbush";
export { default as ipaddr } from "ipaddr.js";
export { default as KDBush } from "kdbush";

export { XMLParser } from "fast-xml-parser";
// --- seo ---
export { Parser as HtmlParser } from "htmlparser2";
export { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
