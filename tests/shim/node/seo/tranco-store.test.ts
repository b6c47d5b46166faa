import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { fileRankStore } from "../../../../shim/node/seo/tranco-store.ts";

test("fileRankStore() keeps dated answers across instances and survives a corrupt file", async () => {
  const dir = mkdtempSync(join(tmpdir(), "tranco-store-"));
  try {
    const store = fileRankStore(join(dir, "nested"));
    assert.equal(await store.get("example.com"), undefined);
    await store.set(
      "example.com",
      { domain: "example.com", rank: 498, listDate: "2026-11-20" },
      "2026-11-21T00:00:00Z",
    );
    const again = fileRankStore(join(dir, "nested"));
    assert.deepEqual(await again.get("example.com"), {
      value: { domain: "example.com", rank: 498, listDate: "2026-11-20" },
      savedAt: "2026-11-21T00:00:00Z",
    });
    assert.match(readFileSync(join(dir, "nested", "tranco-ranks.json"), "utf8"), /"rank":498/);
    writeFileSync(join(dir, "nested", "tranco-ranks.json"), "{not json");
    assert.equal(await fileRankStore(join(dir, "nested")).get("example.com"), undefined);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
