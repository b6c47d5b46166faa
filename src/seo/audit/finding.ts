/**
 * What a check reports: one finding per check, with the affected URLs counted and a capped
 * set of examples, a fix, and the provenance of the judgement.
 * @module
 */
import type { Provenance } from "../provenance.ts";
import type { CheckId } from "./catalogue.ts";

/** Every severity, most severe first: the one place their order is spelled out. */
export const SEVERITIES = ["critical", "high", "medium", "low", "info"] as const;
export type Severity = (typeof SEVERITIES)[number];

/** 0 for the most severe; for sorting by severity. */
export const SEVERITY_RANK = Object.fromEntries(SEVERITIES.map((severity, i) => [severity, i])) as Record<
  Severity,
  number
>;

export const CATEGORIES = [
  "crawlability",
  "indexability",
  "content",
  "links",
  "international",
  "sitemaps",
  "structured-data",
  "social",
  "accessibility",
  "security",
  "performance",
] as const;
export type Category = (typeof CATEGORIES)[number];

/** A threshold taken from common tool practice, with the tool it comes from. */
export interface Threshold {
  value: number;
  unit: string;
  source: string;
}

export interface Example {
  url: string;
  evidence: string;
}

export interface Finding {
  id: CheckId;
  category: Category;
  severity: Severity;
  title: string;
  /** Affected URLs (or items, for site-wide checks). */
  count: number;
  /** At most the example cap; `count` says how many there are in all. */
  examples: Example[];
  fix: string;
  /** `measured` for facts of the fetch, `rule-of-thumb` when a heuristic threshold decides. */
  provenance: Provenance;
  threshold?: Threshold;
}

/** One check's hit on one URL, before aggregation. */
export interface Hit {
  id: CheckId;
  url: string;
  evidence: string;
}
