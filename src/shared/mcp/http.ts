/**
 * Stateless MCP over Streamable HTTP as a Fetch handler: POST only (anything else answers
 * 405 with a JSON-RPC error), no sessions. `initialize`, `ping`, `tools/list` and
 * notifications are answered from the endpoint's description, as the SDK's server would
 * answer them (tests/shared/mcp/http.test.ts compares the two), so a server starts and lists
 * its tools without loading the SDK or any tool code; every other message, and anything
 * malformed, goes through the SDK's transport and a fresh server (sdk-http.ts), loaded then.
 * @module
 */
import type { McpTool } from "../../../deps.ts";
import { ApiError } from "../errors.ts";
import type { ServerInfo } from "./listing.ts";
import { negotiateVersion, SUPPORTED_PROTOCOL_VERSIONS } from "./protocol.ts";
import { capabilitiesOf } from "./resource.ts";
import { once } from "../once.ts";
import type { McpDefinition, McpServerFactory, ToolSource } from "./server.ts";

const JSON_TYPE = "application/json; charset=utf-8";

/** A JSON-RPC error answer that is not tied to a request id (transport-level failures). */
export function jsonRpcError(
  status: number,
  code: number,
  message: string,
  headers: Readonly<Record<string, string>> = {},
): Response {
  const body = { jsonrpc: "2.0", error: { code, message }, id: null };
  return new Response(JSON.stringify(body), { status, headers: { "content-type": JSON_TYPE, ...headers } });
}

/**
 * The conversion point for a failure on an MCP endpoint before any server runs (a guard, the
 * body cap): a JSON-RPC error whose message is `CODE: message`, with the registry's status and
 * the error's headers. Anything not an `ApiError` is INTERNAL, without its details.
 */
export function toJsonRpcError(err: unknown): Response {
  if (!(err instanceof ApiError)) return jsonRpcError(500, -32603, "INTERNAL: the request was not completed");
  return jsonRpcError(err.status, err.code === "UNAUTHORIZED" ? -32001 : -32000, `${err.code}: ${err.message}`, err.headers);
}

/** The 405 answer for anything but POST on an MCP endpoint. */
function mcpMethodNotAllowed(): Response {
  return jsonRpcError(405, -32000, `Method not allowed: use POST /mcp (stateless Streamable HTTP, no sessions)`, {
    allow: "POST",
  });
}

/**
 * A JSON-RPC batch is refused whole, before any message runs, with the SDK's own answer to an
 * invalid request (400, -32600). Protocol 2025-06-18 and later have no batches, and a stateless
 * endpoint cannot tell an older client apart; a batch would otherwise run every call it carries
 * (100 tool calls, 15 MB out) for one count against the rate limit.
 */
function batchRefused(): Response {
  return jsonRpcError(400, -32600, "Invalid Request: JSON-RPC batches are not supported (MCP 2025-06-18 and later have none); send one message per POST");
}

/** A server as the HTTP endpoint sees it: what it says about itself, and how to get the real one. */
interface McpEndpoint {
  info: ServerInfo;
  listing(): Promise<McpTool[]>;
  /** The SDK server factory, loaded on the first message the description cannot answer. */
  factory(): Promise<McpServerFactory>;
}

interface McpHttpOptions {
  /** The tools bound to this request's dependencies (per-request keys); default: the defined ones. */
  toolsFor?: (request: Request) => ToolSource;
}

type Rpc = { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: Record<string, unknown> };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const result = (id: unknown, value: unknown) =>
  new Response(JSON.stringify({ jsonrpc: "2.0", id, result: value }), { headers: { "content-type": JSON_TYPE } });

/** A well-formed initialize request, as the SDK's schema requires it. */
function initializeParams(params: unknown): string | undefined {
  if (!isObject(params) || typeof params.protocolVersion !== "string" || !isObject(params.capabilities)) return;
  const client = params.clientInfo;
  if (!isObject(client) || typeof client.name !== "string" || typeof client.version !== "string") return;
  return params.protocolVersion;
}

/** Headers the SDK transport would accept; anything else is left to it, so it answers the error. */
function wellFormedPost(request: Request): boolean {
  const accept = request.headers.get("accept") ?? "";
  const type = request.headers.get("content-type") ?? "";
  const version = request.headers.get("mcp-protocol-version");
  return (
    accept.includes("application/json") &&
    accept.includes("text/event-stream") &&
    /^application\/json\s*(;|$)/i.test(type) &&
    (version === null || SUPPORTED_PROTOCOL_VERSIONS.includes(version))
  );
}

/** The answer to a message that needs no server, or undefined. */
async function describe(endpoint: McpEndpoint, request: Request, body: unknown): Promise<Response | undefined> {
  if (!isObject(body) || !wellFormedPost(request)) return undefined;
  const { jsonrpc, id, method, params } = body as Rpc;
  if (jsonrpc !== "2.0" || typeof method !== "string" || (params !== undefined && !isObject(params))) return undefined;
  if (id === undefined) return method.startsWith("notifications/") ? new Response(null, { status: 202 }) : undefined;
  if (typeof id !== "string" && typeof id !== "number") return undefined;
  if (method === "ping") return result(id, {});
  if (method === "tools/list") return result(id, { tools: await endpoint.listing() });
  if (method !== "initialize") return undefined;
  const requested = initializeParams(params);
  if (requested === undefined) return undefined;
  const { name, version, instructions } = endpoint.info;
  return result(id, {
    protocolVersion: negotiateVersion(requested),
    capabilities: capabilitiesOf(endpoint.info),
    serverInfo: { name, version },
    ...(instructions ? { instructions } : {}),
  });
}

const sdkHttp = once(() => import("./sdk-http.ts"));

/** The endpoint of a definition whose tools are known up front. */
function endpointOf(definition: McpDefinition): McpEndpoint {
  return { info: definition.info, listing: async () => definition.listing, factory: async () => definition };
}

/** A Fetch handler serving `endpoint` statelessly. */
export function mcpHttpHandler(
  endpoint: McpEndpoint | McpDefinition,
  options: McpHttpOptions = {},
): (request: Request) => Promise<Response> {
  const { toolsFor } = options;
  const served = "createServer" in endpoint ? endpointOf(endpoint) : endpoint;
  return async (request) => {
    if (request.method !== "POST") return mcpMethodNotAllowed();
    let body: unknown;
    try {
      body = await request.json();
    } catch {
      return jsonRpcError(400, -32700, "Parse error: the request body is not JSON");
    }
    if (Array.isArray(body)) return batchRefused();
    const quick = await describe(served, request, body);
    if (quick) return quick;
    const [{ serveWithSdk }, factory] = await Promise.all([sdkHttp(), served.factory()]);
    return serveWithSdk(factory, request, body, toolsFor?.(request));
  };
}
