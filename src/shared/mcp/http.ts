/**
 * Stateless MCP over Streamable HTTP as a Fetch handler: a fresh transport and server per
 * POST, no sessions. Answers are JSON, except a `tools/call` that carries a progress token
 * from a client accepting `text/event-stream`: that one streams as SSE, so the progress
 * notifications reach the client before the result. The request's signal (client gone, or a
 * cancellation relayed by the stdio bridge) closes the server, which aborts the tool's signal.
 * Any other method than POST answers 405 with a JSON-RPC error.
 * @module
 */
import { WebStandardStreamableHTTPServerTransport } from "../../../deps.ts";
import type { McpDefinition } from "./server.ts";
import type { ToolDef } from "./tool.ts";

const JSON_TYPE = "application/json; charset=utf-8";

/** A JSON-RPC error answer that is not tied to a request id (transport-level failures). */
export function jsonRpcError(
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): Response {
  const body = { jsonrpc: "2.0", error: { code, message }, id: null };
  return new Response(JSON.stringify(body), { status, headers: { "content-type": JSON_TYPE, ...headers } });
}

/** The 405 answer for anything but POST on an MCP endpoint. */
export function mcpMethodNotAllowed(path = "/mcp"): Response {
  return jsonRpcError(
    405,
    -32000,
    `Method not allowed: use POST ${path} (stateless Streamable HTTP, no sessions)`,
    { allow: "POST" },
  );
}

interface RpcShape {
  method?: unknown;
  params?: { _meta?: { progressToken?: unknown } };
}

/** Whether the answer should stream: a progress-tracked tool call from a client that accepts SSE. */
function wantsStream(request: Request, body: unknown): boolean {
  if (!request.headers.get("accept")?.includes("text/event-stream")) return false;
  const messages = (Array.isArray(body) ? body : [body]) as (RpcShape | null)[];
  return messages.some(
    (m) => m?.method === "tools/call" && m.params?._meta?.progressToken !== undefined,
  );
}

/** `body` passed through, with `done` called once when it ends or its reader cancels it. */
function endingWith(body: ReadableStream<Uint8Array>, done: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream({
    async pull(controller) {
      const { done: ended, value } = await reader.read();
      if (!ended) return controller.enqueue(value);
      controller.close();
      done();
    },
    cancel(reason) {
      done();
      return reader.cancel(reason);
    },
  });
}

/** Resolves when `signal` aborts (never, if it never does). */
const aborted = (signal: AbortSignal) =>
  new Promise<"aborted">((resolve) => {
    if (signal.aborted) resolve("aborted");
    else signal.addEventListener("abort", () => resolve("aborted"), { once: true });
  });

export interface McpHttpOptions {
  /** The endpoint's path, named in the 405 answer (default `/mcp`). */
  path?: string;
  /** The tools bound to this request's dependencies (per-request keys); default: the defined ones. */
  toolsFor?: (request: Request) => readonly ToolDef[];
}

/** A Fetch handler serving `definition` statelessly. */
export function mcpHttpHandler(
  definition: McpDefinition,
  options: McpHttpOptions = {},
): (request: Request) => Promise<Response> {
  const { path = "/mcp", toolsFor } = options;
  return async (request) => {
    if (request.method !== "POST") return mcpMethodNotAllowed(path);
    let body: unknown;
    try {
      body = await request.json();
    } catch {
      return jsonRpcError(400, -32700, "Parse error: the request body is not JSON");
    }
    const stream = wantsStream(request, body);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: !stream,
    });
    const server = definition.createServer(toolsFor?.(request));
    let closed = false;
    const close = () => {
      if (closed) return;
      closed = true;
      void server.close().catch(() => {});
    };
    request.signal.addEventListener("abort", close, { once: true });
    await server.connect(transport);
    try {
      const answer = await Promise.race([
        transport.handleRequest(request, { parsedBody: body }),
        aborted(request.signal),
      ]);
      if (answer === "aborted") {
        close();
        return jsonRpcError(499, -32800, "Request cancelled by the client");
      }
      if (!answer.body || !answer.headers.get("content-type")?.startsWith("text/event-stream")) {
        close();
        return answer;
      }
      return new Response(endingWith(answer.body, close), answer);
    } catch (err) {
      close();
      throw err;
    }
  };
}
