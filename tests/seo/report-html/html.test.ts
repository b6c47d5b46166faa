import assert from "node:assert/strict";
import { test } from "node:test";
import { html, jsonData, raw } from "../../../src/seo/report-html/html.ts";
import { categoryBars, severityBars } from "../../../src/seo/report-html/charts.ts";
import { urlLink } from "../../../src/seo/report-html/escape.ts";

test("html escapes every value it interpolates unless it is html or raw", () => {
  const title = `"><script>alert(1)</script>`;
  assert.equal(
    html`<td title="${title}">${title}</td>`.value,
    "<td title=\"&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;\">&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;</td>",
  );
  assert.equal(html`<ul>${["a<", html`<li>b</li>`]}</ul>`.value, "<ul>a&lt;<li>b</li></ul>");
  assert.equal(html`${undefined}${null}${false}${0}`.value, "0");
  assert.equal(html`<style>${raw("a > b {}")}</style>`.value, "<style>a > b {}</style>");
  assert.equal(String(html`x`), "x");
});

test("data for the script cannot close its element", () => {
  const text = jsonData({ title: "</script><script>alert(1)</script>\u2028" }).value;
  assert.ok(!text.includes("<"));
  assert.deepEqual(JSON.parse(text), { title: "</script><script>alert(1)</script>\u2028" });
});

test("URLs on the audited origin show as paths, linked in full; other schemes are text", () => {
  assert.equal(
    urlLink("http://h/a?b=<x>", "http://h").value,
    '<a href="http://h/a?b=&lt;x&gt;" rel="noopener noreferrer nofollow" target="_blank">/a?b=&lt;x&gt;</a>',
  );
  assert.equal(urlLink("javascript:alert(1)").value, "<code>javascript:alert(1)</code>");
});

test("charts by severity and category count URLs affected, info left out", () => {
  const findings = [
    { category: "links", severity: "high", count: 12 },
    { category: "links", severity: "low", count: 3 },
    { category: "social", severity: "info", count: 9 },
  ];
  assert.deepEqual(categoryBars(findings, ["content", "links", "social"]), [{ label: "links", value: 15, tone: "sev-bar-high" }]);
  assert.deepEqual(severityBars(findings, ["critical", "high", "medium", "low"]), [
    { label: "high", value: 12, tone: "sev-bar-high" },
    { label: "low", value: 3, tone: "sev-bar-low" },
  ]);
});

test("the report of 300 pages: paths shown, data block whole, one script that runs", async () => {
  const { renderReportHtml } = await import("../../../src/seo/report-html/render.ts");
  const { bigReport } = await import("../fakes/big-report.ts");
  const page = renderReportHtml(bigReport(300), {
    against: "audit-<x>",
    against_target: "http://127.0.0.1:9/<y>",
    fixed: { count: 1, items: [{ check_id: "image-missing-alt", url: "http://127.0.0.1:9/gallery/c0/0" }] },
    new: { count: 0, items: [] },
    persisting: { count: 0, items: [] },
    by_check: [{ check_id: "image-missing-alt", before: 151, after: 150 }],
    score_change: -2,
  });
  assert.equal(page.split("<script nonce=").length - 1, 1);
  assert.ok(!page.includes("<img src=x") && !page.includes("audit-<x>"));
  assert.match(page, /<code>image-missing-alt<\/code> <a href="http:\/\/127\.0\.0\.1:9\/gallery\/c0\/0"[^>]*>\/gallery\/c0\/0<\/a>/);
  const data = JSON.parse(/<script type="application\/json" id="report-data">([^<]*)<\/script>/.exec(page)?.[1] ?? "{}");
  assert.equal(data.pages.length, 300);
  assert.equal(data.findings["image-missing-alt"].length, 150);
});
