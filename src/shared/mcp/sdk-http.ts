/**
 * One stateless MCP request through the SDK: its Streamable HTTP transport and a fresh server.
 * Answers are JSON, except a `tools/call` that carries a progress token from a client
 * accepting `text/event-stream`: that one streams as SSE, so the progress notifications reach
 * the client before the result. The request's signal (client gone, or a cancellation relayed
 * by the stdio bridge) closes the server, which aborts the tool's signal.
 * @module
 */
import { WebStandardStreamableHTTPServerTransport } from "../../../deps-mcp-server.ts";
import { jsonRpcError } from "./http.ts";
import type { McpServerFactory, ToolSource } from "./server.ts";

interface RpcShape {
  method?: unknown;
  params?: { _meta?: { progressToken?: unknown } };
}

/** Whether the answer should stream: a progress-tracked tool call from a client that accepts SSE. */
function wantsStream(request: Request, body: unknown): boolean {
  if (!request.headers.get("accept")?.includes("text/event-stream")) return false;
  const messages = (Array.isArray(body) ? body : [body]) as (RpcShape | null)[];
  return messages.some((m) => m?.method === "tools/call" && m.params?._meta?.progressToken !== undefined);
}

/**
 * The message without its task augmentation, where the server runs no tasks: the protocol asks
 * such a server to answer the call normally (the SDK would refuse it).
 */
function withoutTask(body: unknown): unknown {
  const message = body as { method?: unknown; params?: Record<string, unknown> } | null;
  if (message?.method !== "tools/call" || message.params?.task === undefined) return body;
  const { task: _ignored, ...params } = message.params;
  return { ...message, params };
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

/** Serves one POST whose JSON `body` was already read from `request`. */
export async function serveWithSdk(
  factory: McpServerFactory,
  request: Request,
  body: unknown,
  tools: ToolSource | undefined,
): Promise<Response> {
  const stream = wantsStream(request, body);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: !stream,
  });
  const server = factory.createServer(tools);
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    void server.close().catch(() => {});
  };
  request.signal.addEventListener("abort", close, { once: true });
  await server.connect(transport);
  // Closed on the way out, unless a stream is handed over: that closes it when it ends.
  let streaming = false;
  try {
    const parsedBody = factory.tasks ? body : withoutTask(body);
    const answer = await Promise.race([transport.handleRequest(request, { parsedBody }), aborted(request.signal)]);
    if (answer === "aborted") return jsonRpcError(499, -32800, "Request cancelled by the client");
    if (!answer.body || !answer.headers.get("content-type")?.startsWith("text/event-stream")) return answer;
    streaming = true;
    return new Response(endingWith(answer.body, close), answer);
  } finally {
    if (!streaming) close();
  }
}
