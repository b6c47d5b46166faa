/**
 * `seo_keyword_ideas`: keyword ideas for a seed, keyless by default (autocomplete), with the
 * user's own Search Console queries and Bing demand when their keys are configured.
 * @module
 */
import { v } from "../../../deps.ts";
import { ApiError } from "../../shared/errors.ts";
import { queryBoolean, queryNumber } from "../../shared/http/query.ts";
import type { RestFace } from "../../shared/http/rest-face.ts";
import { defineTool, type ToolDef } from "../../shared/mcp/tool.ts";
import type { SeoConfig } from "../config.ts";
import { type Idea, type IdeasReport, type IdeasRequest, keywordIdeas } from "../keywords/ideas.ts";
import { derived, labelledSchema, PROVENANCE_REF, withProvenanceDefs } from "../provenance.ts";
import { SOURCES_SCHEMA, show } from "../providers/labels.ts";
import type { ProviderDeps } from "../providers/types.ts";
import { REST_ROUTES } from "../http/paths.ts";
import { definedEntries, REST_DOC } from "../http/rest-doc.ts";
import { responseFormat, wholeNumber, yesNo } from "../tool-input.ts";

const MAX_IDEAS = 200;
const CONCISE_IDEAS = 25;

/** The tool's input; its REST face's query reuses the entries. */
const KeywordIdeasInput = v.object({
  query: v.pipe(
    v.string(),
    v.maxLength(100),
    v.regex(/\S.*\S/, "needs at least two non-blank characters"),
    v.description("Seed keyword or topic, e.g. 'ev charging'"),
  ),
  country: v.optional(
    v.pipe(v.string(), v.regex(/^[a-zA-Z]{2}$/), v.description("ISO 3166-1 alpha-2 market, e.g. us, gb, de")),
    "us",
  ),
  language: v.optional(
    v.pipe(v.string(), v.regex(/^[a-zA-Z]{2}$/), v.description("ISO 639-1 language, e.g. en, de")),
    "en",
  ),
  limit: v.optional(wholeNumber(1, MAX_IDEAS, `Most ideas to return (1-${MAX_IDEAS})`), 50),
  expand: v.optional(yesNo("Also query question forms and seed + a..z (about 37 queries per source); false = the seed only"), true),
  site: v.optional(
    v.pipe(
      v.string(),
      v.maxLength(300),
      v.description(
        "Your site (domain or URL) whose Search Console queries to include; default: the first visible properties",
      ),
    ),
  ),
  response_format: responseFormat,
});

const IDEA_SCHEMA = {
  type: "object",
  properties: {
    keyword: { type: "string" },
    provenance: PROVENANCE_REF,
    alsoFrom: { type: "array", items: { type: "string" } },
    searchConsole: { type: "object" },
    bingWeeklyImpressions: labelledSchema("number"),
  },
  required: ["keyword", "provenance"],
};

const OUTPUT = withProvenanceDefs({
  type: "object",
  properties: {
    query: { type: "string" },
    seedBingWeeklyImpressions: labelledSchema("number"),
    ideas: { type: "array", items: IDEA_SCHEMA },
    totalIdeas: labelledSchema("number"),
    sources: SOURCES_SCHEMA,
    expansionQueries: { type: "integer" },
  },
  required: ["query", "ideas", "totalIdeas", "sources"],
});

function line(idea: Idea): string {
  const gsc = idea.searchConsole;
  const metrics = gsc ? ` (${gsc.impressions} impressions, position ${gsc.position.toFixed(1)})` : "";
  const bing = idea.bingWeeklyImpressions ? `; Bing ${show(idea.bingWeeklyImpressions)}/week` : "";
  return `- ${idea.keyword} [${idea.provenance.source}]${metrics}${bing}`;
}

const LIMIT_RULE = `limit must be an integer from 1 to ${MAX_IDEAS}`;

/** `GET /api/v1/keyword-ideas?q=`: the tool's structured result as JSON (`q` is the tool's `query`). */
const REST: RestFace = {
  path: REST_ROUTES.keywordIdeas.path,
  operationId: "keywordIdeas",
  summary: "Keyword ideas for a seed",
  description:
    "The seo_keyword_ideas tool: autocomplete ideas (keyless) plus your Search Console queries and Bing demand when those keys are configured or sent.",
  query: v.strictObject({
    q: KeywordIdeasInput.entries.query,
    country: KeywordIdeasInput.entries.country,
    language: KeywordIdeasInput.entries.language,
    limit: v.optional(
      queryNumber(
        v.pipe(
          v.number(),
          v.integer(LIMIT_RULE),
          v.minValue(1, LIMIT_RULE),
          v.maxValue(MAX_IDEAS, LIMIT_RULE),
          v.description(`Most ideas to return (1-${MAX_IDEAS}, default 50)`),
        ),
        LIMIT_RULE,
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
  }),
  answer: { description: "The seo_keyword_ideas result" },
  ...REST_DOC,
  toInput: ({ q, ...rest }) => definedEntries({ query: q, ...rest }),
};

type Input = v.InferOutput<typeof KeywordIdeasInput>;

/** The request as the sources take it: the seed trimmed, the locale in lower case. */
function ideasRequest(input: Input): IdeasRequest {
  return {
    query: input.query.trim(),
    locale: { country: input.country.toLowerCase(), language: input.language.toLowerCase() },
    limit: input.limit,
    expand: input.expand,
    ...(input.site ? { site: input.site } : {}),
  };
}

/** No source answering is an outage, not "no ideas": an error that names each source's reason. */
function refuseSilence(report: IdeasReport): void {
  if (!report.sources.every((s) => s.status === "unavailable")) return;
  const why = report.sources.map((s) => `${s.source}: ${s.reason}`).join("; ");
  throw new ApiError(
    "UPSTREAM_UNAVAILABLE",
    `No keyword source answered (${why}). Retry later; SEO_GSC_CREDENTIALS or SEO_BING_KEY add keyed sources`,
  );
}

/** The structured result (concise: the first CONCISE_IDEAS ideas) and the text: ten ideas, then the JSON. */
function answer(report: IdeasReport, detailed: boolean) {
  const shown = detailed ? report.ideas : report.ideas.slice(0, CONCISE_IDEAS);
  const structured = {
    query: report.query,
    ...(report.seedBingWeeklyImpressions ? { seedBingWeeklyImpressions: report.seedBingWeeklyImpressions } : {}),
    ideas: shown,
    totalIdeas: derived(report.ideas.length, "distinct ideas from every source, after deduplication"),
    sources: report.sources,
    ...(detailed ? { expansionQueries: report.expansionQueries } : {}),
  };
  const more =
    shown.length < report.ideas.length ? `\n(${report.ideas.length - shown.length} more with response_format=detailed)` : "";
  const head = `${report.ideas.length} ideas for "${report.query}":\n${shown.slice(0, 10).map(line).join("\n")}${more}`;
  return { structured, text: `${head}\n\n${JSON.stringify(structured)}` };
}

export function createKeywordIdeasTool(deps: { provider: ProviderDeps; config: SeoConfig }): ToolDef {
  return defineTool({
    name: "seo_keyword_ideas",
    title: "Keyword ideas",
    description:
      "Finds keyword ideas for a seed query. Keyless by default: Google, Bing and DuckDuckGo autocomplete, expanded with question words and a..z, deduplicated, each idea labelled with the engine that suggested it (no volumes). With SEO_GSC_CREDENTIALS it adds your own Search Console queries containing the seed (clicks, impressions, CTR, average position, last 28 days); with SEO_BING_KEY (Bing Webmaster API key) mean weekly Bing impressions for the seed and top ideas. `sources` reports each source's status, so an outage is never mistaken for 'no ideas'.",
    input: KeywordIdeasInput,
    output: OUTPUT,
    rest: REST,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    async run(input, context) {
      const report = await keywordIdeas(deps, ideasRequest(input), context.signal, context.progress);
      refuseSilence(report);
      return answer(report, input.response_format === "detailed");
    },
  });
}
