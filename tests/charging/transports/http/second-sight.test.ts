import assert from "node:assert/strict";
import { test } from "node:test";
import { createSecondSight } from "../../../../src/charging/transports/http/second-sight.ts";

test("second sight: a key is admitted on its second request, whatever came between, until its slot is taken", () => {
  const askedBefore = createSecondSight();
  assert.equal(askedBefore("search:json:?bbox=1,2,3,4"), false, "first request: not kept");
  for (let i = 0; i < 1000; i++) askedBefore(`search:json:?bbox=${i},2,3,4.5`);
  assert.equal(askedBefore("search:json:?bbox=1,2,3,4"), true, "asked again after 1,000 other boxes");
  assert.equal(askedBefore("search:json:?bbox=1,2,3,4"), true);
  assert.equal(askedBefore(""), false, "the empty key is a key like any other");
  assert.equal(askedBefore(""), true);

  // One slot: every new key takes it, so a key is forgotten once another came in between.
  const tiny = createSecondSight(0);
  assert.equal(tiny("a"), false);
  assert.equal(tiny("b"), false);
  assert.equal(tiny("a"), false, "forgotten: b took the only slot");
  assert.equal(tiny("a"), true);
});
