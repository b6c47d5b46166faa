/**
 * The lab sample: the first page of each URL pattern is measured as the crawl reaches it, others
 * fill in after the last page, up to the sample size; a crawl out of time keeps only what was
 * measured before.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { LabSampler, templateOf } from "../../../src/seo/render/lab-sample.ts";
import type { LabMetrics, Renderer } from "../../../src/seo/render/renderer.ts";

function fakeRenderer(measured: string[], failAfter = Number.POSITIVE_INFINITY): Renderer {
  return {
    tabs: 1,
    render: () => Promise.reject(new Error("unused")),
    async measure(url): Promise<LabMetrics> {
      measured.push(new URL(url).pathname);
      if (measured.length > failAfter) return { url, lcpMs: null, cls: 0, tbtMs: 0, transferBytes: 0, requests: 0, renderBlocking: [], error: "blocked" };
      return { url, lcpMs: 100, cls: 0, tbtMs: 0, transferBytes: 1, requests: 1, renderBlocking: [] };
    },
    close: async () => {},
  };
}

const gate = async () => undefined;
const crawl = ["/", "/p/1", "/p/2", "/blog/a", "/p/3", "/blog/b", "/about"].map((p) => `http://127.0.0.1:1${p}`);

test("one page per pattern first, as the crawl reaches them; then others in crawl order up to the size", async () => {
  const measured: string[] = [];
  const lab = new LabSampler(fakeRenderer(measured), 1000, 5);
  for (const url of crawl) lab.offer(url, gate);
  lab.fill(gate);
  const report = await lab.report(false);
  assert.deepEqual(measured, ["/", "/p/1", "/blog/a", "/about", "/p/2"]);
  assert.deepEqual(
    ["/docs/guide/intro", "/docs/guide/", "/blog/a?page=2", "/p/12", "/about"].map((p) => templateOf(`http://127.0.0.1:1${p}`)),
    ["/docs/guide/*", "/docs/*/", "/blog/*", "/p/*", "/about"],
  );
  assert.equal(report.pages.length, 5);
  assert.equal(report.throttling.cpuSlowdown, 4);
});

test("a crawl out of time keeps the figures measured before and drops the cut one", async () => {
  const measured: string[] = [];
  const lab = new LabSampler(fakeRenderer(measured, 2), 1000, 20);
  for (const url of crawl) lab.offer(url, gate);
  await new Promise((resolve) => setTimeout(resolve, 20)); // the crawl runs on while they are measured
  const report = await lab.report(true);
  assert.deepEqual(report.pages.map((p) => new URL(p.url).pathname), ["/", "/p/1"]);
});
