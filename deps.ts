/**
 * The one place third-party packages enter the TypeScript code. Each service imports
 * from here, so the dependency surface of the whole repository is visible at a glance.
 * One exception, for start-up time: the MCP SDK's server runtime enters through
 * deps-mcp-server.ts (see there).
 * @module
 */

// --- shared: validation ---
export * as v from "valibot";
export { toJsonSchema } from "@valibot/to-json-schema";

// --- shared: MCP (official SDK v1.x) types; its server runtime is in deps-mcp-server.ts ---
export type { CallToolResult, Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
export type { Task as McpTask } from "@modelcontextprotocol/sdk/types.js";
export type { TaskStore as McpTaskStore } from "@modelcontextprotocol/sdk/experimental/tasks/interfaces.js";

// --- shared: Server-Sent Events (the stdio bridge reads the handler's streamed answers)
export { createParser as createEventSourceParser } from "eventsource-parser";

// --- shared: IP address ranges (egress guard, private-address checks) ---
export { default as ipaddr } from "ipaddr.js";

// --- charging: spatial index (walked by src/charging/search/; see walk.ts for why not geokdbush) ---
export { default as KDBush } from "kdbush";

// --- charging: streaming JSON for imports of any size ---
export { JSONParser, Tokenizer } from "@streamparser/json";

// --- seo: the streaming XML parser (HTML: deps-html.ts) ---
export { XMLParser } from "fast-xml-parser";
