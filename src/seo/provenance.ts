/**
 * The closed provenance vocabulary of the SEO tools. Every value a tool returns says where it
 * came from, so an agent can tell a measurement from a provider's claim from a rule of thumb.
 * @module
 */

/** Who can be the source of a `provider` value. */
export const PROVIDERS = [
  "pagespeed-insights",
  "chrome-ux-report",
  "open-pagerank",
  "tranco",
  "search-console",
  "bing-webmaster",
  "google-autocomplete",
  "bing-autocomplete",
  "duckduckgo-autocomplete",
] as const;
export type ProviderId = (typeof PROVIDERS)[number];

/**
 * - `measured`: we fetched or observed it ourselves (status codes, timings, tags on the page).
 * - `provider`: a named third party said it (`source` names which).
 * - `derived`: computed by us from measured or provider values (scores, rankings, counts).
 * - `rule-of-thumb`: a threshold or judgement from common tool practice, not a standard.
 * - `unavailable`: no value; `reason` says why and what would help.
 */
export const PROVENANCE_KINDS = ["measured", "provider", "derived", "rule-of-thumb", "unavailable"] as const;
export type ProvenanceKind = (typeof PROVENANCE_KINDS)[number];

export interface Provenance {
  kind: ProvenanceKind;
  /** Set when kind is `provider`. */
  source?: ProviderId;
  /** Set when kind is `unavailable`: why, and what the user can do (for example which key to set). */
  reason?: string;
  /** ISO 8601 time the value was measured or fetched, where known. */
  at?: string;
}

/** A value with its provenance; `value` is null exactly when kind is `unavailable`. */
export interface Labelled<T> {
  value: T | null;
  provenance: Provenance;
}

export const measured = <T>(value: T, at?: string): Labelled<T> => ({
  value,
  provenance: { kind: "measured", ...(at ? { at } : {}) },
});
export const derived = <T>(value: T): Labelled<T> => ({ value, provenance: { kind: "derived" } });
export const ruleOfThumb = <T>(value: T): Labelled<T> => ({ value, provenance: { kind: "rule-of-thumb" } });
export const fromProvider = <T>(source: ProviderId, value: T, at?: string): Labelled<T> => ({
  value,
  provenance: { kind: "provider", source, ...(at ? { at } : {}) },
});
export const unavailable = <T = never>(reason: string): Labelled<T> => ({
  value: null,
  provenance: { kind: "unavailable", reason },
});
