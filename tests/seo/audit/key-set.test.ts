/** The duplicate checks' set of 30-bit keys: what a Set of numbers would hold, across growth. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { KeySet } from "../../../src/seo/audit/key-set.ts";

test("key set: adds and finds 30-bit keys as a Set does, through several growths, 0 and the largest key included", () => {
  const keys = new KeySet();
  const reference = new Set<number>();
  let seed = 11;
  for (let i = 0; i < 20_000; i++) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    const key = i % 3 === 0 ? seed % 5000 : seed & 0x3fffffff;
    assert.equal(keys.add(key), !reference.has(key));
    reference.add(key);
  }
  for (const key of [0, 0x3fffffff]) {
    assert.equal(keys.add(key), !reference.has(key));
    reference.add(key);
  }
  assert.equal(keys.size, reference.size);
  for (const key of reference) assert.ok(keys.has(key));
  assert.ok(!keys.has(0x3ffffffe) || reference.has(0x3ffffffe));
  assert.equal(new KeySet().has(0), false);
});
