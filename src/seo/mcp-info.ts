/**
 * What the SEO server says about itself before any tool code loads: name, instructions, and
 * the tools/list answer. A bundle carries that listing from build time (scripts/build.ts
 * defines SEO_TOOL_LISTING), so start-up never loads the tools; run from source, it is
 * computed from the tools on first use. Output schemas are listed as outlines (top-level
 * fields, their types, which are required): an SDK client compiles every output schema when
 * it lists tools, and the full schemas cost it about ten times more (see the README); the
 * full schemas are in the gateway's OpenAPI document.
 * @module
 */
import type { McpTool } from "../../deps.ts";
import { VERSION } from "../shared/build-info.ts";
import { listingOf, type ServerInfo } from "../shared/mcp/listing.ts";
import type { ResourceTemplate } from "../shared/mcp/resource.ts";
import type { ToolDef } from "../shared/mcp/tool.ts";

export const SERVER_NAME = "seo-audit-mcp";

const INSTRUCTIONS = [
  "SEO tools. Every value carries a provenance label: measured (we fetched it), provider (a named third party said it),",
  "derived (computed by us), rule-of-thumb (a common tool threshold, not a standard) or unavailable (code + reason + what would help).",
  "response_format: concise (default) gives the high-signal summary first; detailed gives the full payload.",
  "Typical loop: seo_audit_site on a site, fix the ranked issues, audit again comparing with the previous report;",
  "seo_page_report for one URL (adds PageSpeed and field data when SEO_PSI_KEY / SEO_CRUX_KEY are set);",
  "seo_keyword_ideas works without keys; seo_rank_check needs SEO_GSC_CREDENTIALS or SEO_BING_KEY for sites you own;",
  "seo_authority uses Tranco without a key and Open PageRank with SEO_OPR_KEY.",
].join(" ");

const SERVER_INFO: ServerInfo = { name: SERVER_NAME, version: VERSION, instructions: INSTRUCTIONS };

const JSON_TYPE = "application/json";

/** The stored audit reports as resources (tools/report-resources.ts reads them), where audits run. */
const REPORT_TEMPLATES: ResourceTemplate[] = [
  {
    uriTemplate: "seo-report://{report_id}",
    name: "seo-audit-report",
    title: "Stored SEO audit report",
    description: "A stored seo_audit_site report, its concise answer (scores, ranked fixes, URL counts per check); report_id is in every audit's answer",
    mimeType: JSON_TYPE,
  },
  {
    uriTemplate: "seo-report://{report_id}/checks/{check}{?cursor}",
    name: "seo-audit-check",
    title: "Every URL of one check in a stored SEO audit",
    description: "The URLs one check found, with evidence, 50 at a time; the next page is ?cursor= the answer's next_cursor",
    mimeType: JSON_TYPE,
  },
];

/**
 * What the server says about itself: where it can audit, the report resources (it stores
 * reports) and MCP tasks (an audit may run as one).
 */
export const serverInfo = (audits: boolean): ServerInfo =>
  audits ? { ...SERVER_INFO, resourceTemplates: REPORT_TEMPLATES, tasks: true } : SERVER_INFO;

type Schema = Record<string, unknown>;

/** Any JSON value, spelled so that every client reads a constraint (MCP Inspector flags a bare `{}`). */
const ANY_VALUE = { anyOf: ["string", "number", "boolean", "object", "array", "null"].map((type) => ({ type })) };

/**
 * A labelled value's outline: an object with value and provenance, both listed (a required
 * property that is not listed fails strict JSON Schema compilers, such as Ajv's strict mode).
 */
const LABELLED_OUTLINE = {
  type: "object",
  properties: { value: ANY_VALUE, provenance: { type: "object" } },
  required: ["value", "provenance"],
};

/** A property reduced to what it is: its type (a labelled value is an object with value and provenance). */
function outlineProperty(property: Schema): Schema {
  if (typeof property.$ref === "string") return LABELLED_OUTLINE;
  const { type, enum: values, description } = property;
  return {
    ...(type !== undefined ? { type } : {}),
    ...(values !== undefined ? { enum: values } : {}),
    ...(type === undefined && values === undefined ? ANY_VALUE : {}),
    ...(typeof description === "string" ? { description } : {}),
  };
}

/** An object schema's outline: its top-level fields with their types, and which are required. */
function outlineSchema(schema: Schema): Schema {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  return {
    type: "object",
    properties: Object.fromEntries(Object.entries(properties).map(([name, p]) => [name, outlineProperty(p)])),
    ...(schema.required ? { required: schema.required } : {}),
  };
}

/** A tool's tools/list entry, its output schema outlined; a tool that does not run as a task says so. */
export function listSeoTool(tool: ToolDef): McpTool {
  const entry: McpTool = { ...listingOf(tool) };
  entry.execution ??= { taskSupport: "forbidden" };
  return entry.outputSchema ? { ...entry, outputSchema: outlineSchema(entry.outputSchema) as McpTool["outputSchema"] } : entry;
}

declare const SEO_TOOL_LISTING: McpTool[] | undefined;

/** The listing scripts/build.ts embedded, when this code runs from a bundle. */
export const BUILT_LISTING: McpTool[] | undefined =
  typeof SEO_TOOL_LISTING === "undefined" ? undefined : SEO_TOOL_LISTING;
