import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
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

test("Lru evicts in least-recently-used order against a model (fast-check)", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 5 }),
      fc.array(fc.tuple(fc.constantFrom("get", "set"), fc.integer({ min: 0, max: 8 })), { maxLength: 60 }),
      (capacity, steps) => {
        const lru = new Lru<number, number>(capacity);
        // The model: keys from oldest to newest.
        let order: number[] = [];
        const values = new Map<number, number>();
        steps.forEach(([op, key], i) => {
          if (op === "get") {
            assert.equal(lru.get(key), order.includes(key) ? values.get(key) : undefined);
            if (order.includes(key)) order = [...order.filter((k) => k !== key), key];
            return;
          }
          lru.set(key, i);
          values.set(key, i);
          order = [...order.filter((k) => k !== key), key];
          if (order.length > capacity) order = order.slice(1);
        });
        assert.equal(lru.size, order.length);
        for (const key of order) assert.equal(lru.get(key), values.get(key));
      },
    ),
    { numRuns: 300 },
  );
});
