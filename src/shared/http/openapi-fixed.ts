/**
 * What every service's document holds beyond its REST faces: the fixed routes (liveness,
 * POST /mcp, the document itself), the answers the pipeline and the Node transport give on
 * any route (a malformed query's 400, the request deadline's 408), and the rate limit's quota
 * headers on every metered answer. POST /mcp refuses a batch or a body that is no JSON as a
 * JSON-RPC error; its guards' failures are JSON-RPC errors too when its row says so (`failure`).
 * @module
 */
import type { OpenApiOperation, OpenApiResponse } from "./openapi-operation.ts";
import { ERROR_REF, JSON_RPC_ERROR_REF, JSON_RPC_REQUEST } from "./openapi-schemas.ts";

/** What a service says of its fixed routes (see `ServiceDoc` in openapi.ts). */
export interface FixedDoc {
  /** Failures every guarded route can answer (rate limit, key). */
  guarded: Record<string, OpenApiResponse>;
  /** POST /mcp: its summary and description, and answers beyond JSON-RPC's 200 and the body cap's 413. */
  mcp: Omit<OpenApiOperation, "method" | "path" | "operationId" | "secured" | "requestBody" | "responses"> & {
    responses?: Record<string, OpenApiResponse>;
  };
  /** The route rows: a fixed route is documented without security when its row is `open`. */
  routes: readonly { path: string; open?: boolean | undefined; unmetered?: boolean | undefined; failure?: unknown }[];
  /** Headers of the document's own answer (entity tags on a static cut). */
  documentHeaders?: Record<string, string>;
}

/** The OpenAPI template of a route pattern: `/sites/:id+` is `/sites/{id}`. */
export const templateOf = (path: string) => path.replace(/:(\w+)\+?/g, "{$1}");

/** The quota headers the rate limit puts on every metered answer (IETF draft httpapi-ratelimit-headers). */
const QUOTA_HEADERS: Record<string, string> = {
  RateLimit: 'What is left of the quota: "per-minute";r=<requests left>;t=<seconds until the window resets>',
  "RateLimit-Policy": 'The quota: "per-minute";q=<requests per window>;w=<window in seconds>',
};

const MALFORMED_QUERY = "INVALID_ARGUMENTS: the query string is not well percent-encoded UTF-8";

/** The Node server's deadline for a whole request (shim/node/serve.ts); the answer is always the envelope. */
const TIMEOUT: OpenApiResponse = {
  description: "REQUEST_TIMEOUT: the request did not arrive whole within the server's deadline (Node server: 10 s)",
  schema: ERROR_REF,
};

/** The answers the pipeline and the Node transport can give on any route, where the route does not say more. */
function withTransportAnswers(responses: Record<string, OpenApiResponse>): Record<string, OpenApiResponse> {
  return { "400": { description: MALFORMED_QUERY, schema: ERROR_REF }, ...responses, "408": TIMEOUT };
}

/** `op` with the quota headers on each of its answers (a metered route). */
function withQuotaHeaders(op: OpenApiOperation): OpenApiOperation {
  const responses = Object.entries(op.responses).map(([code, response]) => [
    code,
    { ...response, headers: { ...QUOTA_HEADERS, ...response.headers } },
  ]);
  return { ...op, responses: Object.fromEntries(responses) };
}

const asJsonRpc = (response: OpenApiResponse): OpenApiResponse => ({ ...response, schema: JSON_RPC_ERROR_REF });

/** How a row's guard and body-cap failures answer: JSON-RPC errors when it has its own `failure`, else the envelope. */
const failureShape = (row: FixedDoc["routes"][number] | undefined) =>
  row?.failure !== undefined ? asJsonRpc : (response: OpenApiResponse) => response;

const rowOf = (doc: FixedDoc, path: string) => doc.routes.find((route) => templateOf(route.path) === path);

function mcpOperation(doc: FixedDoc): OpenApiOperation {
  const shaped = failureShape(rowOf(doc, "/mcp"));
  const malformedQuery = shaped({ description: "", schema: ERROR_REF }).schema;
  return {
    method: "post",
    path: "/mcp",
    operationId: "mcp",
    tags: ["mcp"],
    ...doc.mcp,
    requestBody: { description: "One JSON-RPC 2.0 request or notification (a batch is refused)", schema: JSON_RPC_REQUEST },
    responses: {
      "200": { description: "The JSON-RPC answer", schema: { type: "object" } },
      ...doc.mcp.responses,
      "400": {
        description:
          "A JSON-RPC batch (-32600: MCP 2025-06-18 and later have none; send one message per POST) or a body that is no JSON (-32700); or a malformed query string (INVALID_ARGUMENTS)",
        schema: malformedQuery === JSON_RPC_ERROR_REF ? JSON_RPC_ERROR_REF : { anyOf: [JSON_RPC_ERROR_REF, ERROR_REF] },
      },
      "413": shaped({ description: "PAYLOAD_TOO_LARGE: the body is over the cap", schema: ERROR_REF }),
    },
  };
}

const HEALTH = {
  type: "object",
  required: ["ok", "stage"],
  properties: { ok: { const: true }, stage: { type: "integer" } },
};

/** The routes every service has: liveness, MCP and this document. */
export function fixedOperations(doc: FixedDoc): OpenApiOperation[] {
  const isOpen = (path: string) => doc.routes.some((route) => route.path === path && route.open === true);
  const documentOpen = isOpen("/api/v1/openapi.json");
  const documentAnswer = { description: "OpenAPI 3.1", schema: { type: "object" }, ...(doc.documentHeaders ? { headers: doc.documentHeaders } : {}) };
  return [
    {
      method: "get",
      path: "/healthz",
      operationId: "health",
      summary: "Liveness and the build stage marker",
      tags: ["meta"],
      secured: !isOpen("/healthz"),
      responses: { "200": { description: "Alive", schema: HEALTH } },
    },
    mcpOperation(doc),
    {
      method: "get",
      path: "/api/v1/openapi.json",
      operationId: "openApi",
      summary: "This document",
      tags: ["meta"],
      secured: !documentOpen,
      responses: { "200": documentAnswer },
    },
  ];
}

/**
 * `op` with the answers its guards and the transport can give: 401 when it is gated, 429 and
 * the quota headers when it is metered (as JSON-RPC errors on POST /mcp), 400 and 408.
 */
export function withRouteAnswers(op: OpenApiOperation, doc: FixedDoc, gated: boolean): OpenApiOperation {
  const row = rowOf(doc, op.path);
  const metered = row?.unmetered !== true;
  const shaped = failureShape(row);
  const failures: Record<string, OpenApiResponse> = {};
  const { "401": unauthorized, "429": limited } = doc.guarded;
  if (gated && op.secured !== false && unauthorized) failures["401"] = shaped(unauthorized);
  if (metered && limited) failures["429"] = shaped(limited);
  const answered = { ...op, responses: withTransportAnswers({ ...op.responses, ...failures }) };
  return metered ? withQuotaHeaders(answered) : answered;
}
