/** The declared JSON Schema of the audit answer against `presentReport`'s output in both formats. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { presentReport } from "../../../src/seo/audit/present.ts";
import { REPORT_OUTPUT_SCHEMA } from "../../../src/seo/audit/report-output-schema.ts";
import { bigReport } from "../fakes/big-report.ts";

test("both formats carry the required fields and only fields the schema declares", () => {
  const declared = Object.keys(REPORT_OUTPUT_SCHEMA.properties);
  const fixRequired = REPORT_OUTPUT_SCHEMA.properties.top_fixes.items.required;
  for (const format of ["concise", "detailed"] as const) {
    const answer = presentReport(bigReport(20), format);
    for (const key of REPORT_OUTPUT_SCHEMA.required) assert.ok(key in answer, `${format}: ${key}`);
    for (const key of Object.keys(answer)) assert.ok(declared.includes(key), `${format}: ${key} is declared`);
    const fixes = answer.top_fixes as Record<string, unknown>[];
    assert.ok(fixes.length > 0);
    for (const fix of fixes) for (const key of fixRequired) assert.ok(key in fix, `${format}: top_fixes[].${key}`);
  }
});
