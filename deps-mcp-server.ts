/**
 * The MCP SDK's server runtime (official SDK v1.x): the low-level Server, its Streamable HTTP
 * transport and the request schemas. Kept out of deps.ts on purpose: a bundle evaluates every
 * package a re-exporting module names as soon as any lazily loaded module imports that module,
 * so from deps.ts the SDK and its zod schemas (about 25 ms of CPU) would run at every start.
 * Only src/shared/mcp/server.ts and src/shared/mcp/sdk-http.ts import this, and servers load
 * them on the first message that needs them.
 * @module
 */
export { Server as McpServer } from "@modelcontextprotocol/sdk/server/index.js";
export { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
export {
  CallToolRequestSchema,
  ErrorCode as McpErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
