/**
 * The gateway's REST subset: `GET /api/v1/page-report?url=` and `GET /api/v1/keyword-ideas?q=`.
 * Each route runs the MCP tool of the same job and answers its structured result as JSON, so
 * REST and MCP cannot disagree. Query schemas reuse the tools' own entries where the value is
 * a string, and the OpenAPI document is generated from them.
 * @module
 */
import { v } from "../../../deps.ts";
import { VERSION } from "../../shared/build-info.ts";
import { ApiError } from "../../shared/errors.ts";
import { ERROR_REF, type OpenApiResponse, type RestFaceDoc, type ServiceDoc } from "../../shared/http/openapi.ts";
import { parseQuery, queryBoolean, queryNumber, type QuerySchema } from "../../shared/http/query.ts";
import { json } from "../../shared/http/respond.ts";
import { invokeTool } from "../../shared/mcp/invoke.ts";
import type { ToolDef } from "../../shared/mcp/tool.ts";
import { KeywordIdeasInput, MAX_IDEAS } from "../tools/keyword-ideas.ts";
import { PageReportInput } from "../tools/page-report.ts";
import { BYOK_HEADERS } from "./byok.ts";
import { REST_PATHS } from "./paths.ts";

const error = (description: string): OpenApiResponse => ({ description, schema: ERROR_REF });

/** The BYOK headers as documented parameters. */
const KEY_HEADERS = Object.fromEntries(
  Object.values(BYOK_HEADERS).map(({ header, variable }) => [
    header,
    {
      description: `Your own ${variable} for this request (${variable === "SEO_GSC_CREDENTIALS" ? "service-account JSON, as is or base64-encoded" : "an API key"}); sent only to its provider, never logged or echoed. Default: the deployer's`,
    },
  ]),
);

/** What a REST route can answer besides its result and the guards' refusals. */
const REST_ERRORS: Record<string, OpenApiResponse> = {
  "400": error("INVALID_ARGUMENTS: a query parameter is missing, unknown, repeated, empty or out of range"),
  "403": error("UPSTREAM_BLOCKED: the URL (or a redirect hop) is a loopback, private, link-local or metadata address"),
  "405": error("METHOD_NOT_ALLOWED: only GET"),
  "500": error("INTERNAL: unexpected failure; retry once"),
  "502": error("UPSTREAM_UNAVAILABLE: the page or every source could not be reached"),
};

const REST_DOC = { tags: ["rest"], headers: KEY_HEADERS, errors: REST_ERRORS } as const;

/** A REST face of a tool: what the OpenAPI document says of it, and how its query becomes the tool's arguments. */
export interface RestRoute extends RestFaceDoc {
  /** The MCP tool that answers it. */
  tool: string;
  query: QuerySchema;
  /** The tool's arguments from the parsed query. */
  toArgs(query: Record<string, unknown>): Record<string, unknown>;
}

const PageReportQuery = v.strictObject({
  url: PageReportInput.entries.url,
  strategy: PageReportInput.entries.strategy,
  response_format: PageReportInput.entries.response_format,
});

const KeywordIdeasQuery = v.strictObject({
  q: KeywordIdeasInput.entries.query,
  country: KeywordIdeasInput.entries.country,
  language: KeywordIdeasInput.entries.language,
  limit: v.optional(
    queryNumber(
      v.pipe(
        v.number(),
        v.integer(`limit must be an integer from 1 to ${MAX_IDEAS}`),
        v.minValue(1, `limit must be an integer from 1 to ${MAX_IDEAS}`),
        v.maxValue(MAX_IDEAS, `limit must be an integer from 1 to ${MAX_IDEAS}`),
        v.description(`Most ideas to return (1-${MAX_IDEAS}, default 50)`),
      ),
      `limit must be an integer from 1 to ${MAX_IDEAS}`,
      "digits",
    ),
  ),
  expand: v.optional(
    queryBoolean(
      "expand",
      "true (default): also query question forms and seed + a..z (about 37 queries per source); false: the seed only",
    ),
  ),
  site: KeywordIdeasInput.entries.site,
  response_format: KeywordIdeasInput.entries.response_format,
});

const defined = (entries: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(entries).filter(([, value]) => value !== undefined));

export const REST_ROUTES: readonly RestRoute[] = [
  {
    path: REST_PATHS.pageReport,
    operationId: "pageReport",
    summary: "Report on one page",
    description:
      "The seo_page_report tool: the page fetched from the gateway (status, timing, redirects, meta data, headings, structured data, word count) with its audit findings, plus PageSpeed Insights and CrUX field data when keys are configured or sent. Loopback, private, link-local and metadata addresses are refused (UPSTREAM_BLOCKED).",
    tool: "seo_page_report",
    query: PageReportQuery,
    answer: { description: "The seo_page_report result" },
    ...REST_DOC,
    toArgs: (query) => defined(query),
  },
  {
    path: REST_PATHS.keywordIdeas,
    operationId: "keywordIdeas",
    summary: "Keyword ideas for a seed",
    description:
      "The seo_keyword_ideas tool: autocomplete ideas (keyless) plus your Search Console queries and Bing demand when those keys are configured or sent.",
    tool: "seo_keyword_ideas",
    query: KeywordIdeasQuery,
    answer: { description: "The seo_keyword_ideas result" },
    ...REST_DOC,
    toArgs: ({ q, ...rest }) => defined({ query: q, ...rest }),
  },
];

/** Answers the REST route at `url` with the tool from this request's `tools` (the handler's route table has checked the method). */
export async function serveRest(request: Request, url: URL, tools: readonly ToolDef[]): Promise<Response> {
  const route = REST_ROUTES.find((r) => r.path === url.pathname);
  if (!route) throw new ApiError("NOT_FOUND", `${url.pathname} is not a REST route`);
  const query = parseQuery(route.query, url.searchParams) as Record<string, unknown>;
  const tool = tools.find((t) => t.name === route.tool);
  if (!tool) throw new ApiError("INTERNAL", `${route.tool} is not available`);
  const out = await invokeTool(tool, route.toArgs(query), { signal: request.signal, progress: () => {} });
  return json(out.structured);
}

/** The parts of the gateway's OpenAPI document that are not its REST faces; `secured` when GATEWAY_AUTH_TOKEN is set. */
export function gatewayDoc(secured: boolean, routes: ServiceDoc["routes"]): ServiceDoc {
  return {
    info: {
      title: "seo-audit-mcp gateway",
      version: VERSION,
      description:
        "The SEO tools over HTTP: MCP at POST /mcp and a REST subset. Every error is {\"error\":{\"code\",\"message\"}}; BYOK headers carry your own provider keys per request.",
      license: { name: "MIT", identifier: "MIT" },
      ...(secured ? { security: { kind: "bearer", description: "GATEWAY_AUTH_TOKEN, as Authorization: Bearer <token>" } } : {}),
    },
    guarded: {
      ...(secured ? { "401": error("UNAUTHORIZED: no or a wrong Authorization: Bearer token") } : {}),
      "429": {
        ...error("RATE_LIMITED: too many requests from this client; retry after the given seconds"),
        headers: { "retry-after": "Seconds until the client's window resets" },
      },
    },
    routes,
    mcp: {
      summary: "MCP over stateless Streamable HTTP",
      description:
        "JSON-RPC 2.0 messages of the Model Context Protocol: the five SEO tools (seo_audit_site answers LOCAL_ONLY here). Send Accept: application/json, text/event-stream. A tools/call with a progress token streams as text/event-stream. Other methods answer 405.",
      tags: ["mcp"],
      headers: KEY_HEADERS,
      responses: { "202": { description: "Accepted (a notification)" } },
    },
  };
}
