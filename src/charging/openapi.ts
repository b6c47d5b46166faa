/**
 * The charging API's OpenAPI 3.1 document, generated from the valibot schemas that validate
 * its requests (query and path parameters) and the JSON Schemas of its answers, so it cannot
 * drift from what the handler accepts. Served at `GET /api/v1/openapi.json`.
 * @module
 */
import { VERSION } from "../shared/build-info.ts";
import { type OpenApiOperation, type OpenApiResponse, openApiDocument } from "../shared/http/openapi.ts";
import { searchOutputSchema, siteOutputSchema, siteSchema, statusOutputSchema, attributionSchema } from "./mcp-schemas.ts";
import { SiteQuerySchema, SitesQuerySchema } from "./query.ts";
import { SitePathSchema } from "./site-id.ts";

const ENVELOPE = { $ref: "#/components/schemas/ErrorEnvelope" };
const error = (description: string): OpenApiResponse => ({ description, schema: ENVELOPE });
const CACHE_HEADERS = {
  etag: "Entity tag of this answer for this data cut (send it back in if-none-match)",
  "cache-control": "public, max-age=300 (private when a key gate is on)",
};

const feature = {
  type: "object",
  required: ["type", "id", "geometry", "properties"],
  properties: {
    type: { const: "Feature" },
    id: { type: "string" },
    geometry: {
      type: "object",
      required: ["type", "coordinates"],
      properties: { type: { const: "Point" }, coordinates: { type: "array", items: { type: "number" }, minItems: 2, maxItems: 2 } },
    },
    properties: siteSchema,
  },
};

const featureCollection = {
  type: "object",
  required: ["type", "features", "page", "attribution"],
  properties: {
    type: { const: "FeatureCollection" },
    features: { type: "array", items: feature },
    page: searchOutputSchema.properties.page,
    attribution: { type: "array", items: attributionSchema, description: "Credit lines to show with the data (a foreign member)" },
  },
};

const COMMON = {
  "304": { description: "Not modified: the if-none-match tag still names this answer", headers: CACHE_HEADERS },
  "401": error("UNAUTHORIZED: the key gate is on and the key is missing or unknown"),
  "429": { ...error("RATE_LIMITED: over the per-client rate"), headers: { "retry-after": "Seconds until the window resets" } },
};

const OPERATIONS: OpenApiOperation[] = [
  {
    method: "get",
    path: "/healthz",
    operationId: "health",
    summary: "Liveness and the build stage marker",
    secured: false,
    responses: {
      "200": {
        description: "Alive",
        schema: { type: "object", required: ["ok", "stage"], properties: { ok: { type: "boolean" }, stage: { type: "integer" } } },
      },
    },
  },
  {
    method: "get",
    path: "/api/v1/sites",
    operationId: "searchSites",
    summary: "Search charging sites",
    description:
      "One page of sites. With near (radius) or bbox, nearest first from the point or the box centre; otherwise id order. Unknown, repeated or empty parameters answer 400.",
    query: SitesQuerySchema,
    responses: {
      "200": {
        description: "A page of sites with the total count and the credit lines to show",
        content: { "application/json": searchOutputSchema, "application/geo+json": featureCollection },
        headers: CACHE_HEADERS,
      },
      "400": error("INVALID_ARGUMENTS naming the parameter and the rule"),
      ...COMMON,
    },
  },
  {
    method: "get",
    path: "/api/v1/sites/{id}",
    operationId: "getSite",
    summary: "One charging site",
    pathParams: SitePathSchema,
    query: SiteQuerySchema,
    responses: {
      "200": {
        description: "The site with its credit line",
        content: { "application/json": siteOutputSchema, "application/geo+json": { ...feature, required: [...feature.required, "attribution"], properties: { ...feature.properties, attribution: attributionSchema } } },
        headers: CACHE_HEADERS,
      },
      "404": error("NOT_FOUND: unknown, closed or malformed id"),
      ...COMMON,
    },
  },
  {
    method: "get",
    path: "/api/v1/status/{id}",
    operationId: "getSiteStatus",
    summary: "A charging site's status (registry or live), with staleness against the 60-minute SLO",
    pathParams: SitePathSchema,
    responses: {
      "200": { description: "The status record", schema: statusOutputSchema },
      "403": error("UPSTREAM_BLOCKED: the live feed is not allowlisted or resolves to a private address"),
      "404": error("NOT_FOUND: unknown, closed or malformed id"),
      "401": COMMON["401"],
      "429": COMMON["429"],
    },
  },
  {
    method: "get",
    path: "/api/v1/openapi.json",
    operationId: "openApi",
    summary: "This document",
    secured: false,
    responses: { "200": { description: "OpenAPI 3.1", schema: { type: "object" }, headers: CACHE_HEADERS }, "304": COMMON["304"] },
  },
  {
    method: "post",
    path: "/mcp",
    operationId: "mcp",
    summary: "MCP over Streamable HTTP (stateless, JSON responses): tools/list, then tools/call",
    requestBody: { description: "A JSON-RPC 2.0 request", schema: { type: "object", required: ["jsonrpc", "method"], properties: { jsonrpc: { const: "2.0" }, method: { type: "string" }, id: {}, params: { type: "object" } } } },
    responses: {
      "200": { description: "The JSON-RPC answer", schema: { type: "object" } },
      "413": error("PAYLOAD_TOO_LARGE: the body is over the cap"),
      "401": COMMON["401"],
      "429": COMMON["429"],
    },
  },
];

/** The document; `gated` adds the key scheme (x-api-key, or Authorization: Bearer). */
export function chargingOpenApi(gated: boolean): Record<string, unknown> {
  return openApiDocument(
    {
      title: "Charging-site API",
      version: VERSION,
      description:
        "Read-only API over open charging-site data (Open Charge Map, OpenStreetMap). Every error is {\"error\":{\"code\",\"message\"}}. Show the attribution returned with the data.",
      ...(gated
        ? { security: { kind: "apiKey", header: "x-api-key", description: "A free key (or Authorization: Bearer <key>)", bearerAlso: true } }
        : {}),
    },
    OPERATIONS,
  );
}
