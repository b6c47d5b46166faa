/**
 * What a check reports: one finding per check, with the affected URLs counted and a capped
 * set of examples, a fix, and the provenance of the judgement.
 * @module
 */
import type { Provenance } from "../provenance.ts";
import { type CheckDef, type CheckId, checkOf } from "./catalogue.ts";

/** Evidence or a label cut to `max` characters, an ellipsis marking the cut. */
export const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

export interface Example {
  url: string;
  evidence: string;
}

/** A check's catalogue entry with what the audit found of it. */
export interface Finding extends CheckDef {
  /** Affected URLs (or items, for site-wide checks). */
  count: number;
  /** At most the example cap; `count` says how many there are in all. */
  examples: Example[];
  /** `measured` for facts of the fetch, `rule-of-thumb` when a heuristic threshold decides. */
  provenance: Provenance;
  /** Pages that carry the problem, when that is not `count` (a broken link: the pages linking to it). */
  pages?: number;
  /** Set when the problem is the same element on most pages: one fix in the shared template. */
  template?: { pages: number; evidence: string };
}

/** One check's hit on one URL, before aggregation. */
export interface Hit {
  id: CheckId;
  url: string;
  evidence: string;
}

/** Turns the examples of one check into a finding (count = distinct URLs, examples capped; the objects are shared, not copied). */
export function findingOf(id: CheckId, hits: readonly Example[], count: number, cap: number): Finding {
  const check = checkOf(id);
  return {
    id,
    category: check.category,
    severity: check.severity,
    title: check.title,
    count,
    examples: hits.slice(0, cap),
    fix: check.fix,
    provenance: check.threshold
      ? {
          kind: "rule-of-thumb",
          basis: `${check.threshold.value} ${check.threshold.unit} (${check.threshold.source})`,
        }
      : { kind: "measured" },
    ...(check.threshold ? { threshold: check.threshold } : {}),
  };
}
