/**
 * Keyword ideas from the keyless autocomplete sources: every expansion query against every
 * source with bounded concurrency per source, deduplicated, ranked by how many sources agree
 * and then by how early they appeared.
 * @module
 */
import type { SeoConfig } from "../config.ts";
import type { ProviderId } from "../provenance.ts";
import { AUTOCOMPLETE_SOURCES, type Locale, suggest } from "../providers/autocomplete.ts";
import { mergeStatuses, type SourceStatus, statusOf } from "../providers/labels.ts";
import { mapBounded, type Progress, type ProviderDeps } from "../providers/types.ts";
import { keywordKey } from "./expand.ts";

/** Requests in flight per source: polite to endpoints that are free to use. */
const PER_SOURCE_CONCURRENCY = 2;

interface RawIdea {
  keyword: string;
  sources: ProviderId[];
  /** Position of first appearance across (query, suggestion), for a stable order. */
  order: number;
}

export async function autocompleteIdeas(
  deps: { provider: ProviderDeps; config: SeoConfig },
  queries: readonly string[],
  locale: Locale,
  signal?: AbortSignal,
  progress: Progress = () => {},
): Promise<{ ideas: RawIdea[]; sources: SourceStatus[]; requests: number }> {
  const total = queries.length * AUTOCOMPLETE_SOURCES.length;
  let done = 0;
  const seedKey = keywordKey(queries[0] ?? "");
  const perSource = await Promise.all(
    AUTOCOMPLETE_SOURCES.map((source) =>
      mapBounded(queries, PER_SOURCE_CONCURRENCY, (q) =>
        suggest(deps.provider, deps.config, source, q, locale, signal).then((result) => {
          if (++done % 10 === 0 || done === total)
            progress(done, total, `autocomplete: ${done} of ${total} queries`);
          return result;
        }),
      ),
    ),
  );
  const ideas = new Map<string, RawIdea>();
  const statuses: SourceStatus[] = [];
  perSource.forEach((results) => {
    results.forEach((result, qi) => {
      statuses.push(statusOf(result));
      if (!result.ok) return;
      result.value.forEach((keyword, si) => {
        const key = keywordKey(keyword);
        if (key === seedKey) return;
        const order = qi * 100 + si;
        const seen = ideas.get(key);
        if (!seen) ideas.set(key, { keyword: keyword.trim(), sources: [result.source], order });
        else {
          if (!seen.sources.includes(result.source)) seen.sources.push(result.source);
          seen.order = Math.min(seen.order, order);
        }
      });
    });
  });
  const ranked = [...ideas.values()].sort((a, b) => b.sources.length - a.sources.length || a.order - b.order);
  return {
    ideas: ranked,
    sources: summarise(statuses),
    requests: total,
  };
}

// One status per source: ok when any query answered; otherwise the first failure's reason.
function summarise(statuses: SourceStatus[]): SourceStatus[] {
  const anyOk = new Set(statuses.filter((s) => s.status === "ok").map((s) => s.source));
  return mergeStatuses(statuses.filter((s) => anyOk.has(s.source) === (s.status === "ok")));
}
