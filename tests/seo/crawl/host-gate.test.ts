import assert from "node:assert/strict";
import { test } from "node:test";
import { retryAfterMs } from "../../../src/seo/crawl/host-gate.ts";

test("retryAfterMs() reads delta seconds and HTTP dates, falls back on anything else, and clamps to the cap", () => {
  const now = Date.parse("2026-11-21T00:00:00Z");
  assert.equal(retryAfterMs("3", now, 500, 10_000), 3000);
  assert.equal(retryAfterMs(" 1.5 ", now, 500, 10_000), 1500);
  assert.equal(retryAfterMs("Sat, 21 Nov 2026 00:00:05 GMT", now, 500, 10_000), 5000);
  assert.equal(retryAfterMs("Fri, 20 Nov 2026 23:59:00 GMT", now, 500, 10_000), 0);
  assert.equal(retryAfterMs("soon", now, 500, 10_000), 500);
  assert.equal(retryAfterMs(null, now, 500, 10_000), 500);
  assert.equal(retryAfterMs("", now, 500, 10_000), 500);
  assert.equal(retryAfterMs("3600", now, 500, 10_000), 10_000);
  assert.equal(retryAfterMs("3600", now, 500, Number.POSITIVE_INFINITY), 3_600_000);
});
