/**
 * Stateless MCP over Streamable HTTP as a Fetch handler: a fresh transport and server per
 * POST, JSON responses, no sessions. Any other method answers 405 with a JSON-RPC error.
 * @module
 */
import { WebStandardStreamableHTTPServerTransport } from "../../../deps.ts";
import type { McpDefinition } from "./server.ts";

/** The 405 answer for anything but POST on an MCP endpoint. */
export function mcpMethodNotAllowed(path = "/mcp"): Response {
  const body = {
    jsonrpc: "2.0",
    error: {
      code: -32000,
      message: `Method not allowed: use POST ${path} (stateless Streamable HTTP, no sessions)`,
    },
    id: null,
  };
  return new Response(JSON.stringify(body), {
    status: 405,
    headers: { "content-type": "application/json; charset=utf-8", allow: "POST" },
  });
}

/** A Fetch handler serving `definition` statelessly. */
export function mcpHttpHandler(
  definition: McpDefinition,
  path = "/mcp",
): (request: Request) => Promise<Response> {
  return async (request) => {
    if (request.method !== "POST") return mcpMethodNotAllowed(path);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    const server = definition.createServer();
    await server.connect(transport);
    try {
      return await transport.handleRequest(request);
    } finally {
      void server.close().catch(() => {});
    }
  };
}
