import assert from "node:assert/strict";
import { test } from "node:test";
import { verdictOf } from "../../../src/seo/page-report/vitals.ts";

test("verdictOf(): Google's thresholds, the good edge inclusive", () => {
  assert.equal(verdictOf("lcp", 2500), "good");
  assert.equal(verdictOf("lcp", 2501), "needs-improvement");
  assert.equal(verdictOf("cls", 0.3), "poor");
});
