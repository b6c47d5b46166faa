/**
 * The readable report on a report made without a crawl: the words of the one reading it, the
 * partial-audit line, the fixes a concise text shows and names.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { AuditReport } from "../../../src/seo/audit/report.ts";
import { CLI_WORDS, reachText, reportText } from "../../../src/seo/audit/report-text.ts";
import { bigReport } from "../fakes/big-report.ts";

test("an agent reads check ids and the tool's arguments; a terminal user titles, examples and flags", () => {
  const report = bigReport(200);
  const tool = reportText(report, "concise");
  assert.match(tool, /^SEO audit of http:\/\/127\.0\.0\.1:9\/: 200 pages crawled in 1\.0 s \(report audit-20261127T000000-big\)$/m);
  assert.match(tool, /^ {2}1\. \[medium\] image-missing-alt: 100 URL\(s\)\. fix image-missing-alt$/m);
  assert.match(tool, /Every URL of a check: seo_audit_site \{report_id, check\}/);
  assert.doesNotMatch(tool, /e\.g\./);
  const cli = reportText(report, "concise", undefined, CLI_WORDS);
  assert.match(cli, /1\. \[medium\] image-missing-alt \(image-missing-alt\): 100 URL\(s\)\. fix image-missing-alt\n {5}e\.g\. \/gallery\/c0\/0: image-missing-alt on \/gallery\/c0\/0/);
  assert.match(cli, /Every URL of a check: --csv DIR writes them/);
});

test("a partial audit says so first: a bound names the settings to raise, a cancelled one says to run again", () => {
  const bounded: AuditReport = { ...bigReport(10), truncated: true, truncation_reasons: ["max_pages"] };
  assert.match(reportText(bounded, "concise").split("\n")[1] ?? "", /^TRUNCATED \(max_pages\): a partial audit; raise the bounds \(max_pages/);
  assert.match(reportText(bounded, "concise", undefined, CLI_WORDS), /raise the bounds \(--max-pages, --max-depth, --max-seconds\) to see more/);
  const cancelled: AuditReport = { ...bounded, truncation_reasons: ["cancelled"] };
  assert.match(reportText(cancelled, "concise").split("\n")[1] ?? "", /^CANCELLED: a partial audit of the pages crawled before it was stopped/);
});

test("a concise text shows five fixes and names the first eight others; a detailed one shows every fix", () => {
  const base = bigReport(10);
  const fix = base.fixes[0] as AuditReport["fixes"][number];
  const fixes = Array.from({ length: 14 }, (_, i) => ({ ...fix, rank: i + 1, check_id: `check-${i + 1}` })) as unknown as AuditReport["fixes"];
  const report: AuditReport = { ...base, fixes };
  const concise = reportText(report, "concise");
  assert.match(concise, /^ {2}5\. /m);
  assert.doesNotMatch(concise, /^ {2}6\. /m);
  assert.match(concise, /More: check-6, check-7, check-8, check-9, check-10, check-11, check-12, check-13 and 1 more \(response_format=detailed lists all\)\./);
  const detailed = reportText(report, "detailed");
  assert.match(detailed, /^ {2}14\. /m);
  assert.doesNotMatch(detailed, /More: /);
});

test("the reach of a fix: URLs, the pages carrying them, or one template element", () => {
  const fix = bigReport(10).fixes[0] as AuditReport["fixes"][number];
  assert.equal(reachText({ ...fix, urls_affected: 12, pages: 12 }), "12 URL(s)");
  assert.equal(reachText({ ...fix, urls_affected: 12, pages: 440 }), "12 URL(s) on 440 pages");
  assert.equal(
    reachText({ ...fix, urls_affected: 30, template: { pages: 30, evidence: "<nav>" } }),
    "30 URL(s), 30 pages sharing one template element",
  );
});
