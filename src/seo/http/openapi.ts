/**
 * The gateway's OpenAPI 3.1 document, served at /api/v1/openapi.json: generated from the
 * REST routes' valibot query schemas and the tools' output schemas, so it describes exactly
 * what the handler accepts and answers.
 * @module
 */
import { VERSION } from "../../shared/build-info.ts";
import {
  hoistDefs,
  type OpenApiOperation,
  type OpenApiResponse,
  openApiDocument,
} from "../../shared/http/openapi.ts";
import type { ToolDef } from "../../shared/mcp/tool.ts";
import { BYOK_HEADERS } from "./byok.ts";
import { REST_ROUTES } from "./rest.ts";

const ENVELOPE = { $ref: "#/components/schemas/ErrorEnvelope" };
const error = (description: string): OpenApiResponse => ({ description, schema: ENVELOPE });

const KEY_HEADERS = Object.fromEntries(
  Object.values(BYOK_HEADERS).map(({ header, variable }) => [
    header,
    {
      description: `Your own ${variable} for this request (${variable === "SEO_GSC_CREDENTIALS" ? "service-account JSON, as is or base64-encoded" : "an API key"}); sent only to its provider, never logged or echoed. Default: the deployer's`,
    },
  ]),
);

function errors(secured: boolean): Record<string, OpenApiResponse> {
  return {
    "400": error("INVALID_ARGUMENTS: a query parameter is missing, unknown, repeated, empty or out of range"),
    ...(secured ? { "401": error("UNAUTHORIZED: no or a wrong Authorization: Bearer token") } : {}),
    "403": error("UPSTREAM_BLOCKED: the URL (or a redirect hop) is a loopback, private, link-local or metadata address"),
    "405": error("METHOD_NOT_ALLOWED: only GET"),
    "429": {
      ...error("RATE_LIMITED: too many requests from this client; retry after the given seconds"),
      headers: { "retry-after": "Seconds until the client's window resets" },
    },
    "500": error("INTERNAL: unexpected failure; retry once"),
    "502": error("UPSTREAM_UNAVAILABLE: the page or every source could not be reached"),
  };
}

function restOperation(route: (typeof REST_ROUTES)[number], tool: ToolDef | undefined, secured: boolean) {
  const { schema, defs } = hoistDefs(tool?.output ?? { type: "object" });
  const operation: OpenApiOperation = {
    method: "get",
    path: route.path,
    operationId: route.operationId,
    summary: route.summary,
    description: route.description,
    tags: ["rest"],
    query: route.query,
    headers: KEY_HEADERS,
    responses: { "200": { description: `The ${route.tool} result`, schema }, ...errors(secured) },
  };
  return { operation, defs };
}

const SPECIAL: readonly OpenApiOperation[] = [
  {
    method: "get",
    path: "/healthz",
    operationId: "health",
    summary: "Liveness",
    description: "Never needs the bearer token.",
    secured: false,
    responses: {
      "200": {
        description: "Alive, with the build stage",
        schema: { type: "object", properties: { ok: { const: true }, stage: { type: "integer" } } },
      },
    },
  },
  {
    method: "post",
    path: "/mcp",
    operationId: "mcp",
    summary: "MCP over stateless Streamable HTTP",
    description:
      "JSON-RPC 2.0 messages of the Model Context Protocol: the five SEO tools (seo_audit_site answers LOCAL_ONLY here). Send Accept: application/json, text/event-stream. A tools/call with a progress token streams as text/event-stream. Other methods answer 405.",
    tags: ["mcp"],
    headers: KEY_HEADERS,
    requestBody: { description: "A JSON-RPC request or notification", schema: { type: "object" } },
    responses: {
      "200": { description: "The JSON-RPC response (JSON, or SSE events for a progress-tracked call)", schema: { type: "object" } },
      "202": { description: "Accepted (a notification)" },
      "401": { description: "A JSON-RPC error: the bearer token is missing or wrong", schema: { type: "object" } },
    },
  },
  {
    method: "get",
    path: "/api/v1/openapi.json",
    operationId: "openapi",
    summary: "This document",
    responses: { "200": { description: "OpenAPI 3.1", schema: { type: "object" } } },
  },
];

/** The document for a gateway serving `tools`; `secured` when GATEWAY_AUTH_TOKEN is set. */
export function seoOpenApi(tools: readonly ToolDef[], secured: boolean): Record<string, unknown> {
  const rest = REST_ROUTES.map((route) =>
    restOperation(
      route,
      tools.find((t) => t.name === route.tool),
      secured,
    ),
  );
  return openApiDocument(
    {
      title: "seo-audit-mcp gateway",
      version: VERSION,
      description:
        "The SEO tools over HTTP: MCP at POST /mcp and a REST subset. Every error is {\"error\":{\"code\",\"message\"}}; BYOK headers carry your own provider keys per request.",
      ...(secured
        ? { security: { kind: "bearer", description: "GATEWAY_AUTH_TOKEN, as Authorization: Bearer <token>" } }
        : {}),
      schemas: Object.assign({}, ...rest.map((r) => r.defs)),
    },
    [...SPECIAL, ...rest.map((r) => r.operation)],
  );
}
