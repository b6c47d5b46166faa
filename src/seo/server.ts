/**
 * The SEO MCP server definition: name, version, instructions for agents and the tool table.
 * Transports (stdio here, Streamable HTTP in a gateway) call `createServer()` per connection.
 * @module
 */
import { VERSION } from "../shared/build-info.ts";
import { defineMcp, type McpDefinition } from "../shared/mcp/server.ts";
import { createSeoTools, type SeoToolDeps } from "./tools/mod.ts";

export const SERVER_NAME = "seo-audit-mcp";

export const INSTRUCTIONS = [
  "SEO tools. Every value carries a provenance label: measured (we fetched it), provider (a named third party said it),",
  "derived (computed by us), rule-of-thumb (a common tool threshold, not a standard) or unavailable (code + reason + what would help).",
  "response_format: concise (default) gives the high-signal summary first; detailed gives the full payload.",
  "Typical loop: seo_audit_site on a site, fix the ranked issues, audit again comparing with the previous report;",
  "seo_page_report for one URL (adds PageSpeed and field data when SEO_PSI_KEY / SEO_CRUX_KEY are set);",
  "seo_keyword_ideas works without keys; seo_rank_check needs SEO_GSC_CREDENTIALS or SEO_BING_KEY for sites you own;",
  "seo_authority uses Tranco without a key and Open PageRank with SEO_OPR_KEY.",
].join(" ");

export function createSeoMcp(deps: SeoToolDeps): McpDefinition {
  return defineMcp(
    { name: SERVER_NAME, version: VERSION, instructions: INSTRUCTIONS },
    createSeoTools(deps),
    deps.log,
  );
}
