/**
 * `seo_authority`: domain authority signals from Open PageRank (SEO_OPR_KEY) and the Tranco
 * list (keyless), every value labelled with its source and data date.
 * @module
 */
import { v } from "../../../deps.ts";
import { ApiError } from "../../shared/errors.ts";
import { defineTool, type ToolDef } from "../../shared/mcp/tool.ts";
import { normaliseDomain } from "../authority/domains.ts";
import { type AuthorityDeps, type DomainAuthority, lookupAuthority } from "../authority/lookup.ts";
import { labelledSchema, withProvenanceDefs } from "../provenance.ts";
import { SOURCES_SCHEMA, show } from "../providers/labels.ts";
import { responseFormat } from "../tool-input.ts";

/** At most this many domains per call: Tranco allows about one request a second. */
const MAX_DOMAINS = 20;

const Input = v.object({
  domains: v.pipe(
    v.array(v.pipe(v.string(), v.minLength(1), v.maxLength(300))),
    v.minLength(1),
    v.maxLength(MAX_DOMAINS),
    v.description(
      `Domains or URLs to compare (1-${MAX_DOMAINS}), e.g. ["example.com", "https://www.rival.org/"]`,
    ),
  ),
  response_format: responseFormat,
});

/** A domain's row; concise answers carry only the required three. */
const ROW = {
  type: "object",
  properties: {
    domain: { type: "string" },
    pageRank: labelledSchema("number"),
    trancoRank: labelledSchema("number"),
    pageRankInteger: labelledSchema("number"),
    openPageRankRank: labelledSchema("number"),
  },
  required: ["domain", "pageRank", "trancoRank"],
};

const OUTPUT = withProvenanceDefs({
  type: "object",
  properties: { domains: { type: "array", items: ROW }, sources: SOURCES_SCHEMA },
  required: ["domains", "sources"],
});

function concise(d: DomainAuthority) {
  return { domain: d.domain, pageRank: d.pageRank, trancoRank: d.trancoRank };
}

function line(d: DomainAuthority): string {
  return `${d.domain}: Open PageRank ${show(d.pageRank)}; Tranco rank ${show(d.trancoRank, (r) => `#${r}`)}`;
}

export function createAuthorityTool(deps: AuthorityDeps): ToolDef {
  return defineTool({
    name: "seo_authority",
    title: "Domain authority",
    description:
      "Compares the authority of domains with open signals: Open PageRank (0-10 score and global rank; needs SEO_OPR_KEY) and the Tranco top-1M research ranking (keyless; lower rank = more popular). Use it to size up a site against competitors. Every value carries provenance (provider and data date); a missing key or an unranked domain comes back as unavailable with the reason.",
    input: Input,
    output: OUTPUT,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    async run(input, context) {
      const domains: string[] = [];
      for (const raw of input.domains) {
        const domain = normaliseDomain(raw);
        if (!domain) {
          throw new ApiError(
            "INVALID_ARGUMENTS",
            `"${raw.slice(0, 80)}" is not a domain name; pass hosts like example.com or URLs like https://example.com/`,
          );
        }
        if (!domains.includes(domain)) domains.push(domain);
      }
      const report = await lookupAuthority(deps, domains, context.signal, context.progress);
      const detailed = input.response_format === "detailed";
      const structured = {
        domains: detailed ? report.domains : report.domains.map(concise),
        sources: report.sources,
      };
      const text = `${report.domains.map(line).join("\n")}\n\n${JSON.stringify(structured)}`;
      return { structured, text };
    },
  });
}
