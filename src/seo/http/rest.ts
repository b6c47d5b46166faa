/**
 * The gateway's REST subset: `GET /api/v1/page-report?url=` and `GET /api/v1/keyword-ideas?q=`.
 * Each route runs the MCP tool of the same job and answers its structured result as JSON, so
 * REST and MCP cannot disagree. Query schemas reuse the tools' own entries where the value is
 * a string, and the OpenAPI document is generated from them.
 * @module
 */
import { v } from "../../../deps.ts";
import { ApiError } from "../../shared/errors.ts";
import { parseQuery, type QuerySchema } from "../../shared/http/query.ts";
import { json } from "../../shared/http/respond.ts";
import { invokeTool } from "../../shared/mcp/invoke.ts";
import type { ToolDef } from "../../shared/mcp/tool.ts";
import { KeywordIdeasInput, MAX_IDEAS } from "../tools/keyword-ideas.ts";
import { PageReportInput } from "../tools/page-report.ts";
import { REST_PATHS } from "./paths.ts";

export interface RestRoute {
  path: string;
  operationId: string;
  summary: string;
  description: string;
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
    v.pipe(
      v.string(),
      v.regex(/^\d{1,3}$/, `limit must be an integer from 1 to ${MAX_IDEAS}`),
      v.description(`Most ideas to return (1-${MAX_IDEAS}, default 50)`),
      v.transform(Number),
    ),
  ),
  expand: v.optional(
    v.pipe(
      v.picklist(["true", "false"], "expand must be true or false"),
      v.description(
        "true (default): also query question forms and seed + a..z (about 37 queries per source); false: the seed only",
      ),
      v.transform((text) => text === "true"),
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
