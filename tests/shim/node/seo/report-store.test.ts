/** The audit's report store on disk: the newest reports kept, ids checked, JSON written a piece at a time. */
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import fc from "fast-check";
import { fileReportStore } from "../../../../shim/node/seo/report-store.ts";

test("file report store: the newest reports are kept, even among others of the same second", async () => {
  const own = mkdtempSync(join(tmpdir(), "seo-reports-same-second-"));
  try {
    const store = fileReportStore(own, 2);
    const report = { version: 1 } as unknown as Parameters<typeof store.save>[0];
    let previous: string | undefined;
    for (let i = 0; i < 30; i++) {
      const id = await store.save(report);
      assert.ok(await store.load(id), `report ${i} (${id}) was pruned as soon as it was saved`);
      if (previous) assert.ok(await store.load(previous), `report ${i - 1} was pruned before an older one`);
      previous = id;
    }
    assert.equal(readdirSync(own).length, 2);
  } finally {
    rmSync(own, { recursive: true, force: true });
  }
});

test("file report store: refuses ids that are not report ids", async () => {
  const own = mkdtempSync(join(tmpdir(), "seo-reports-ids-"));
  try {
    const files = fileReportStore(own);
    assert.equal(await files.load("../../etc/passwd"), undefined);
    assert.equal(await files.load("audit-20990101T000000-abc"), undefined);
  } finally {
    rmSync(own, { recursive: true, force: true });
  }
});

test("file report store: the file is exactly JSON.stringify's text, written a piece at a time", async () => {
  const own = mkdtempSync(join(tmpdir(), "seo-reports-json-"));
  try {
    const store = fileReportStore(own, 1000);
    const long = fc.array(fc.jsonValue({ maxDepth: 2 }), { minLength: 250, maxLength: 800 });
    // Findings as a report holds them: objects whose arrays are long, undefined members skipped or null.
    const nested = fc.array(fc.dictionary(fc.string(), fc.oneof(long, fc.anything({ maxDepth: 3 })), { maxKeys: 4 }), { maxLength: 4 });
    const field = fc.oneof(fc.jsonValue({ maxDepth: 3 }), long, nested, fc.anything({ maxDepth: 5 }), fc.constant(undefined));
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.string(), field, { maxKeys: 6 }), async (fields) => {
        const report = { version: 1, ...fields } as unknown as Parameters<typeof store.save>[0];
        const id = await store.save(report);
        assert.equal(readFileSync(join(own, `${id}.json`), "utf8"), JSON.stringify({ ...report, id }));
      }),
      { numRuns: 80 },
    );
  } finally {
    rmSync(own, { recursive: true, force: true });
  }
});

test("file report store: a report saved under a given id (a resumable crawl's) replaces the one saved under it before", async () => {
  const own = mkdtempSync(join(tmpdir(), "seo-reports-given-"));
  try {
    const files = fileReportStore(own);
    const id = "audit-20260101T000000-abc";
    assert.equal(await files.save({ version: 1, target: "partial" } as never, id), id);
    assert.equal(await files.save({ version: 1, target: "whole" } as never, id), id);
    assert.deepEqual(readdirSync(own), [`${id}.json`]);
    assert.equal((await files.load(id))?.target, "whole");
  } finally {
    rmSync(own, { recursive: true, force: true });
  }
});
