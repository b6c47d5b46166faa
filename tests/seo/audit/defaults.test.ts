/**
 * The shipped defaults do the job: a 1,000-page site on the user's own machine is audited
 * whole, with no flags, through the CLI and through the bundled MCP server over real stdio.
 * (With the earlier defaults, 500 ms apart and two at a time in 60 s, a 600-page site stopped
 * at about 118 pages.)
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { nodeHttpRequest } from "../../../shim/node/seo/crawl-request.ts";
import { memoryReportStore } from "../../../src/seo/audit/report-store.ts";
import { auditCommand } from "../../../src/seo/cli/audit.ts";
import { serveSite, type TestSite } from "../crawl/site-server.ts";
import { generatedSiteHandler } from "../fakes/generated-site.ts";
import { ensureBundle, spawnServer } from "../fakes/stdio.ts";

const PAGES = 1000;
let site: TestSite;
const dir = mkdtempSync(join(tmpdir(), "seo-defaults-"));

before(async () => {
  site = await serveSite(generatedSiteHandler(PAGES));
});
after(async () => {
  await site.close();
  rmSync(dir, { recursive: true, force: true });
});

test("CLI with no flags on http://localhost audits all 1,000 pages of a local site", async () => {
  const out: string[] = [];
  const err: string[] = [];
  const http = nodeHttpRequest(16);
  const port = new URL(site.origin).port;
  try {
    const code = await auditCommand([`http://localhost:${port}/`, "--json"], {
      stdout: (s) => void out.push(s),
      stderr: (s) => void err.push(s),
      fetch,
      request: http.request,
      reports: memoryReportStore(),
      now: () => new Date(),
      readText: (path) => readFile(path, "utf8"),
      writeText: (path, text) => writeFile(path, text),
    });
    assert.equal(code, 0, err.join(""));
  } finally {
    http.close();
  }
  const report = JSON.parse(out.join("")) as {
    summary: { crawl: { value: { pages_crawled: number; truncated: boolean } } };
  };
  assert.equal(report.summary.crawl.value.pages_crawled, PAGES);
  assert.equal(report.summary.crawl.value.truncated, false);
  assert.match(err.join(""), /bounds: 10000 pages, 600 s, 8 parallel, 0 ms apart/);
});

test("the MCP tool over real stdio (dist/seo.js mcp) audits all 1,000 pages with its defaults", async () => {
  ensureBundle();
  const server = await spawnServer({ SEO_CACHE_DIR: dir });
  try {
    const result = await server.call("seo_audit_site", { url: `${site.origin}/` });
    assert.equal(result.isError, undefined, result.text);
    const summary = result.structured.summary as { crawl: { value: Record<string, unknown> } };
    assert.equal(summary.crawl.value.pages_crawled, PAGES);
    assert.equal(summary.crawl.value.truncated, false);
  } finally {
    await server.close();
  }
});
