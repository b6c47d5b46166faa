/**
 * The JSON Schema of `presentReport`'s output, as the audit tool declares it.
 * @module
 */
import { SEVERITIES } from "./catalogue.ts";

const LABELLED = {
  type: "object",
  properties: { value: {}, provenance: { type: "object" } },
  required: ["value", "provenance"],
};

/** JSON Schema of `presentReport`'s output (both formats validate). */
export const REPORT_OUTPUT_SCHEMA = {
  type: "object",
  properties: {
    report_id: { type: "string", description: "pass as compare_to in a later audit" },
    target: { type: "string" },
    generated_at: { type: "string" },
    bases: { type: "object", description: "each basis a value's provenance refers to (see bases.<name>), stated once" },
    summary: { type: "object", additionalProperties: LABELLED },
    scores: LABELLED,
    top_fixes: {
      type: "array",
      items: {
        type: "object",
        properties: {
          rank: { type: "integer" },
          check_id: { type: "string" },
          severity: { enum: [...SEVERITIES] },
          urls_affected: { type: "integer" },
          pages: { type: "integer" },
          template: { type: "object" },
          fix: { type: "string" },
          examples: { type: "array" },
          provenance: { type: "object" },
        },
        required: ["rank", "check_id", "severity", "urls_affected", "fix", "provenance"],
      },
    },
    findings: {
      description:
        "detailed: every finding (id, severity, count, examples, fix, provenance); concise: the checks top_fixes leave out, as {value: {<severity>: {<check id>: URLs}}, provenance}",
    },
    comparison: LABELLED,
    check: { type: "object" },
    items: LABELLED,
    range: { type: "object" },
    next_cursor: { type: "string" },
    page: LABELLED,
    issues: LABELLED,
    crawl: { type: "object" },
    pages: LABELLED,
    charts: LABELLED,
  },
  // An audit answers summary, scores, top_fixes and findings; a read by check or URL answers check/items or page/issues.
  required: ["report_id", "target", "generated_at"],
} as const;
