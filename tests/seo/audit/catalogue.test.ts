import assert from "node:assert/strict";
import { test } from "node:test";
import { CHECKS, type CheckId, checkOf, SEVERITIES, SEVERITY_RANK } from "../../../src/seo/audit/catalogue.ts";
import { Collector } from "../../../src/seo/audit/collector.ts";
import { findingOf } from "../../../src/seo/audit/finding.ts";
import { isApiError } from "../../../src/shared/errors.ts";

test("a typo in a check id is a compile error (typecheck verifies the expect-error line)", () => {
  // @ts-expect-error "titel-missing" is not in the catalogue
  const typo: CheckId = "titel-missing";
  assert.equal(CHECKS.has(typo), false);
  const real: CheckId = "title-missing";
  assert.equal(checkOf(real).id, "title-missing");
});

const unknownId = "no-such-check" as CheckId;
const isInternal = (err: unknown) => isApiError(err) && err.code === "INTERNAL" && /no-such-check/.test(err.message);

test("an unknown check id fails the same way in the site audit and the page report: INTERNAL", () => {
  const collector = new Collector();
  collector.add({ id: "title-missing", url: "https://example.com/", evidence: "" });
  assert.equal(collector.findings(5).length, 1);
  collector.add({ id: unknownId, url: "https://example.com/", evidence: "" });
  assert.throws(() => collector.findings(5), isInternal);
  assert.throws(() => findingOf(unknownId, [], 0, 5), isInternal);
});

test("severity order comes from SEVERITIES: site findings sort by it", () => {
  assert.deepEqual(
    [...SEVERITIES].sort((a, b) => SEVERITY_RANK[b] - SEVERITY_RANK[a]).reverse(),
    ["critical", "high", "medium", "low", "info"],
  );
  const collector = new Collector();
  const url = "https://example.com/";
  for (const id of ["twitter-card-missing", "title-too-long", "http-5xx", "h1-missing", "not-https"] as const)
    collector.add({ id, url, evidence: "" });
  assert.deepEqual(
    collector.findings(1).map((f) => f.severity),
    ["critical", "high", "medium", "low", "info"],
  );
});
