/**
 * `seo_rank_check`: best-effort search position of a keyword for a domain you own, from
 * Search Console and Bing Webmaster; never scraped.
 * @module
 */
import { v } from "../../../deps.ts";
import { ApiError } from "../../shared/errors.ts";
import { defineTool, type ToolDef } from "../../shared/mcp/tool.ts";
import { normaliseDomain } from "../authority/domains.ts";
import type { SeoConfig } from "../config.ts";
import { labelledSchema, withProvenanceDefs } from "../provenance.ts";
import { SOURCES_SCHEMA, show } from "../providers/labels.ts";
import type { ProviderDeps } from "../providers/types.ts";
import { checkRank } from "../rank/check.ts";
import type { EngineRank } from "../rank/google.ts";
import { boundedText, responseFormat } from "../tool-input.ts";

const Input = v.object({
  keyword: v.pipe(
    v.string(),
    v.minLength(1),
    v.maxLength(200),
    v.regex(/\S/, "must not be blank"),
    v.description("The exact search query"),
  ),
  domain: boundedText(3, 300, "Your domain or site URL, e.g. example.com (must be a property the configured keys can see)"),
  response_format: responseFormat,
});

const ENGINE_SCHEMA = {
  type: "object",
  properties: {
    position: labelledSchema("number"),
    clicks: labelledSchema("number"),
    impressions: labelledSchema("number"),
    property: { type: "string" },
    topPages: { type: "array", items: { type: "object" } },
  },
  required: ["position"],
};

const OUTPUT = withProvenanceDefs({
  type: "object",
  properties: {
    keyword: { type: "string" },
    domain: { type: "string" },
    position: labelledSchema("number"),
    engine: { enum: ["google", "bing"] },
    google: ENGINE_SCHEMA,
    bing: ENGINE_SCHEMA,
    sources: SOURCES_SCHEMA,
  },
  required: ["keyword", "domain", "position", "sources"],
});

const brief = (e: EngineRank) => ({ position: e.position, ...(e.property ? { property: e.property } : {}) });

export function createRankCheckTool(deps: { provider: ProviderDeps; config: SeoConfig }): ToolDef {
  return defineTool({
    name: "seo_rank_check",
    title: "Rank check",
    description:
      "Best-effort search position of a keyword for a domain you own: Google average position from Search Console (SEO_GSC_CREDENTIALS; properties the service account can see; last 28 days, with top pages) and Bing average position from Bing Webmaster query stats (SEO_BING_KEY; verified sites). Result pages are never scraped, so a domain you do not own, or no key, gives `unavailable` with the reason and the key that would help.",
    input: Input,
    output: OUTPUT,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    async run(input, context) {
      const domain = normaliseDomain(input.domain);
      if (!domain)
        throw new ApiError("INVALID_ARGUMENTS", `"${input.domain.slice(0, 80)}" is not a domain; pass e.g. example.com`);
      const report = await checkRank(deps, input.keyword.trim(), domain, context.signal);
      // Concise: each engine's position and property only (the keys keep their places).
      const concise = { ...report, google: brief(report.google), bing: brief(report.bing) };
      const structured = input.response_format === "detailed" ? report : concise;
      const head = `"${report.keyword}" on ${report.domain}: position ${show(report.position)}`;
      return { structured, text: `${head}\n\n${JSON.stringify(structured)}` };
    },
  });
}
