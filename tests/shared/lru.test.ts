import assert from "node:assert/strict";
import { test } from "node:test";
import { Lru } from "../../src/shared/lru.ts";

test("Lru evicts the least recently used entry beyond its capacity", () => {
  const lru = new Lru<string, number>(2);
  lru.set("a", 1);
  lru.set("b", 2);
  assert.equal(lru.get("a"), 1, "touching a makes b the oldest");
  lru.set("c", 3);
  assert.equal(lru.size, 2);
  assert.equal(lru.get("b"), undefined);
  assert.equal(lru.get("a"), 1);
  lru.set("a", 10);
  assert.equal(lru.get("a"), 10);
  assert.equal(lru.size, 2);
});
