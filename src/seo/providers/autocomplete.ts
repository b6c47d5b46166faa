/**
 * Keyless search-engine autocomplete (Google, Bing, DuckDuckGo). All three answer the
 * OpenSearch suggestions shape `["query", ["suggestion", ...]]`. These endpoints are public
 * but unofficial: an outage is reported as such, never as "no suggestions".
 * @module
 */
import type { EndpointVar, SeoConfig } from "../config.ts";
import type { ProviderId } from "../provenance.ts";
import { TtlCache } from "./cache.ts";
import { requestJson } from "./request.ts";
import { fail, ok, type ProviderDeps, type ProviderResult } from "./types.ts";

export const AUTOCOMPLETE_SOURCES = [
  "google-autocomplete",
  "bing-autocomplete",
  "duckduckgo-autocomplete",
] as const;
type AutocompleteSource = (typeof AUTOCOMPLETE_SOURCES)[number] & ProviderId;

export interface Locale {
  /** ISO 3166-1 alpha-2, lower case (e.g. "us"). */
  country: string;
  /** ISO 639-1, lower case (e.g. "en"). */
  language: string;
}

interface SourceSpec {
  name: string;
  endpoint: EndpointVar;
  query(q: string, locale: Locale): URLSearchParams;
}

const SPECS: Record<AutocompleteSource, SourceSpec> = {
  "google-autocomplete": {
    name: "Google autocomplete",
    endpoint: "SEO_GOOGLE_AUTOCOMPLETE_ENDPOINT",
    query: (q, l) =>
      new URLSearchParams({ client: "firefox", q, hl: l.language, gl: l.country, ie: "utf-8", oe: "utf-8" }),
  },
  "bing-autocomplete": {
    name: "Bing autocomplete",
    endpoint: "SEO_BING_AUTOCOMPLETE_ENDPOINT",
    query: (q, l) => new URLSearchParams({ query: q, market: `${l.language}-${l.country.toUpperCase()}` }),
  },
  "duckduckgo-autocomplete": {
    name: "DuckDuckGo autocomplete",
    endpoint: "SEO_DDG_AUTOCOMPLETE_ENDPOINT",
    query: (q, l) => new URLSearchParams({ q, type: "list", kl: `${l.country}-${l.language}` }),
  },
};

const cache = new TtlCache<string[]>(1000);
const TTL_MS = 60 * 60_000;
const TIMEOUT_MS = 8_000;

/** Parses `["q", ["s1", ...]]`; undefined when the shape is different. */
function parseSuggestions(body: unknown): string[] | undefined {
  if (!Array.isArray(body) || !Array.isArray(body[1])) return undefined;
  return (body[1] as unknown[]).filter((s): s is string => typeof s === "string" && s.trim() !== "");
}

/** Suggestions of one source for one query. */
export async function suggest(
  deps: ProviderDeps,
  config: SeoConfig,
  source: AutocompleteSource,
  q: string,
  locale: Locale,
  signal?: AbortSignal,
): Promise<ProviderResult<string[]>> {
  const spec = SPECS[source];
  const url = `${config.endpoints[spec.endpoint]}?${spec.query(q, locale)}`;
  const hit = cache.get(url);
  if (hit) return ok(source, hit, deps.now().toISOString());
  const answer = await requestJson(deps, {
    source,
    name: spec.name,
    url,
    init: { headers: { accept: "application/json" } },
    timeoutMs: config.timeoutMs ?? TIMEOUT_MS,
    secrets: config.secrets,
    signal,
  });
  if (!answer.ok) return answer;
  const suggestions = parseSuggestions(answer.value);
  if (!suggestions) return fail(source, "provider-down", `${spec.name} answered in an unexpected format`);
  cache.set(url, suggestions, TTL_MS);
  return ok(source, suggestions, answer.at);
}
