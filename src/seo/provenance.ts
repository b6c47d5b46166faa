/**
 * The closed provenance vocabulary of the SEO tools. Every value a tool returns says where it
 * came from, so an agent can tell a measurement from a provider's claim from a rule of thumb.
 * @module
 */

/** Who can be the source of a `provider` (or provider-`derived`) value. */
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
 * - `derived`: computed by us from measured or provider values (scores, rankings, counts);
 *   `source` names the provider whose data it was computed from, if any.
 * - `rule-of-thumb`: a threshold or judgement from common tool practice, not a standard.
 * - `unavailable`: no value; `code` says which kind of gap, `reason` why and what would help.
 */
const PROVENANCE_KINDS = ["measured", "provider", "derived", "rule-of-thumb", "unavailable"] as const;
export type ProvenanceKind = (typeof PROVENANCE_KINDS)[number];

/**
 * Why a value is unavailable, as a closed set an agent can branch on:
 * - `no-key`: the provider needs a key that is not set (the reason names the variable).
 * - `key-rejected`: the provider refused the key (invalid, API not enabled, no permission).
 * - `quota`: the provider's quota or rate limit is exhausted; retry later.
 * - `provider-down`: the provider timed out, failed (5xx) or answered in an unexpected format.
 * - `no-data`: the provider answered, but has no data for this URL, domain or query.
 * - `not-applicable`: the value does not apply to this input (for example a failed page fetch).
 */
export const UNAVAILABLE_CODES = [
  "no-key",
  "key-rejected",
  "quota",
  "provider-down",
  "no-data",
  "not-applicable",
] as const;
export type UnavailableCode = (typeof UNAVAILABLE_CODES)[number];

export interface Provenance {
  kind: ProvenanceKind;
  /** Set when kind is `provider`, and on `derived` values computed from one provider's data. */
  source?: ProviderId;
  /** Set when kind is `unavailable`. */
  code?: UnavailableCode;
  /** Set when kind is `unavailable`: why, and what the user can do (for example which key to set). */
  reason?: string;
  /** How a derived value or a rule of thumb was obtained (for example which thresholds). */
  basis?: string;
  /** ISO 8601 time (or date) the value was measured, fetched or published, where known. */
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
export const derived = <T>(value: T, basis?: string, source?: ProviderId): Labelled<T> => ({
  value,
  provenance: { kind: "derived", ...(source ? { source } : {}), ...(basis ? { basis } : {}) },
});
export const fromProvider = <T>(source: ProviderId, value: T, at?: string): Labelled<T> => ({
  value,
  provenance: { kind: "provider", source, ...(at ? { at } : {}) },
});
export const unavailable = <T = never>(
  reason: string,
  code: UnavailableCode = "not-applicable",
): Labelled<T> => ({
  value: null,
  provenance: { kind: "unavailable", code, reason },
});

/** JSON Schema of a `Provenance` object, for tools' output schemas. */
const PROVENANCE_SCHEMA = {
  type: "object",
  properties: {
    kind: { enum: [...PROVENANCE_KINDS] },
    source: { enum: [...PROVIDERS] },
    code: { enum: [...UNAVAILABLE_CODES] },
    reason: { type: "string" },
    basis: { type: "string" },
    at: { type: "string" },
  },
  required: ["kind"],
} as const;

const labelledDef = (value: Record<string, unknown>) => ({
  type: "object",
  properties: { value, provenance: { $ref: "#/$defs/provenance" } },
  required: ["value", "provenance"],
});

// Shared definitions keep output schemas small: clients compile them once per tool, not per value.
const DEFS = {
  provenance: PROVENANCE_SCHEMA,
  labelled: labelledDef({}),
  labelledNumber: labelledDef({ type: ["number", "null"] }),
};

/** Reference to the provenance definition; valid inside a schema wrapped by `withProvenanceDefs`. */
export const PROVENANCE_REF = { $ref: "#/$defs/provenance" } as const;

/** Reference to a labelled value (any value, or a number); use inside `withProvenanceDefs`. */
export function labelledSchema(value: "any" | "number" = "any"): Record<string, unknown> {
  return { $ref: value === "number" ? "#/$defs/labelledNumber" : "#/$defs/labelled" };
}

/** A tool's output schema with the provenance definitions its references point to. */
export function withProvenanceDefs(schema: Record<string, unknown>): Record<string, unknown> {
  return { ...schema, $defs: DEFS };
}
