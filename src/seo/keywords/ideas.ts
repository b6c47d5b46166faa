/**
 * Keyword ideas from every configured source: keyless autocomplete always; the user's own
 * Search Console queries with SEO_GSC_CREDENTIALS; Bing Webmaster demand with SEO_BING_KEY.
 * @module
 */
import type { SeoConfig } from "../config.ts";
import type { Labelled, Provenance, ProviderId } from "../provenance.ts";
import type { Locale } from "../providers/autocomplete.ts";
import type { SourceStatus } from "../providers/labels.ts";
import type { Progress, ProviderDeps } from "../providers/types.ts";
import { autocompleteIdeas } from "./autocomplete-ideas.ts";
import { expansions, keywordKey } from "./expand.ts";
import { bingDemand, type ConsoleQuery, consoleQueries } from "./keyed-sources.ts";

/** Bing demand is looked up for the seed and this many top ideas (one request each). */
const BING_LOOKUPS = 5;

export interface Idea {
  keyword: string;
  /** The first source that suggested it. */
  provenance: Provenance;
  alsoFrom?: ProviderId[];
  searchConsole?: Omit<ConsoleQuery, "query">;
  bingWeeklyImpressions?: Labelled<number>;
}

interface IdeasRequest {
  query: string;
  locale: Locale;
  limit: number;
  expand: boolean;
  site?: string;
}

interface IdeasReport {
  query: string;
  seedBingWeeklyImpressions?: Labelled<number>;
  ideas: Idea[];
  sources: SourceStatus[];
  expansionQueries: number;
}

export async function keywordIdeas(
  deps: { provider: ProviderDeps; config: SeoConfig },
  request: IdeasRequest,
  signal?: AbortSignal,
  progress?: Progress,
): Promise<IdeasReport> {
  const queries = expansions(request.query, request.locale.language, request.expand);
  const [auto, gsc] = await Promise.all([
    autocompleteIdeas(deps, queries, request.locale, signal, progress),
    deps.config.gsc ? consoleQueries(deps, request.query, request.site, request.limit, signal) : undefined,
  ]);
  const byKey = new Map<string, Idea>();
  for (const raw of auto.ideas) {
    const [first, ...rest] = raw.sources as [ProviderId, ...ProviderId[]];
    byKey.set(keywordKey(raw.keyword), {
      keyword: raw.keyword,
      provenance: { kind: "provider", source: first },
      ...(rest.length ? { alsoFrom: rest } : {}),
    });
  }
  // The user's own queries with real impressions outrank suggestions: put them first.
  const own: Idea[] = [];
  for (const row of gsc?.rows ?? []) {
    const { query, ...metrics } = row;
    const key = keywordKey(query);
    const seen = byKey.get(key);
    byKey.delete(key);
    own.push({
      keyword: query,
      provenance: row.provenance,
      ...(seen ? { alsoFrom: [seen.provenance.source as ProviderId, ...(seen.alsoFrom ?? [])] } : {}),
      searchConsole: metrics,
    });
  }
  const ideas = [...own, ...byKey.values()].slice(0, request.limit);
  const sources = [...auto.sources, ...(gsc ? [gsc.status] : [])];
  let seedBing: Labelled<number> | undefined;
  if (deps.config.keys.bing) {
    const targets = [request.query, ...ideas.slice(0, BING_LOOKUPS).map((i) => i.keyword)];
    const bing = await bingDemand(deps, targets, request.locale.country, request.locale.language, signal);
    seedBing = bing.demand.get(request.query);
    for (const idea of ideas) {
      const label = bing.demand.get(idea.keyword);
      if (label) idea.bingWeeklyImpressions = label;
    }
    sources.push(bing.status);
  }
  return {
    query: request.query,
    ...(seedBing ? { seedBingWeeklyImpressions: seedBing } : {}),
    ideas,
    sources,
    expansionQueries: queries.length,
  };
}
