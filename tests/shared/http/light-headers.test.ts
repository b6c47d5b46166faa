import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { LightHeaders, linesOf } from "../../../src/shared/http/light-headers.ts";

type Op = { kind: "append" | "set" | "delete" | "get" | "has"; name: string; value: string };

const NAMES = ["content-type", "Content-Type", "vary", "set-cookie", "Set-Cookie", "x-a", "etag", "bad name", "é", ""];
const VALUES = ["a", " padded\t", "b, c", "", "line\nbreak", "nul\0", "café", "€uro", "x=1; Path=/"];

/** What an operation does to `headers`: its result, or the error's class. */
function apply(headers: Headers, op: Op): unknown {
  try {
    switch (op.kind) {
      case "append":
        return headers.append(op.name, op.value);
      case "set":
        return headers.set(op.name, op.value);
      case "delete":
        return headers.delete(op.name);
      case "get":
        return headers.get(op.name);
      case "has":
        return headers.has(op.name);
    }
  } catch (err) {
    return (err as Error).constructor.name;
  }
}

test("LightHeaders answers every operation as undici's Headers does, errors included (fast-check)", () => {
  const op = fc.record({
    kind: fc.constantFrom("append", "set", "delete", "get", "has"),
    name: fc.constantFrom(...NAMES),
    value: fc.constantFrom(...VALUES),
  }) as fc.Arbitrary<Op>;
  fc.assert(
    fc.property(fc.array(op, { maxLength: 12 }), (ops) => {
      const light = new LightHeaders();
      const real = new Headers();
      for (const o of ops) assert.deepEqual(apply(light, o), apply(real, o), JSON.stringify(o));
      assert.deepEqual([...light], [...real]);
      assert.deepEqual([...light.keys()], [...real.keys()]);
      assert.deepEqual([...light.values()], [...real.values()]);
      assert.deepEqual(light.getSetCookie(), real.getSetCookie());
      const seen: [string, string][] = [];
      light.forEach((value, name, parent) => {
        assert.equal(parent, light);
        seen.push([name, value]);
      });
      assert.deepEqual(seen, [...real.entries()]);
      // The adapter's lines: every header once, each cookie on its own line, in any order.
      const pairs = (lines: string[]) => lines.flatMap((_, i) => (i % 2 ? [] : [`${lines[i]}: ${lines[i + 1]}`])).sort();
      assert.deepEqual(pairs(linesOf(light)), pairs(linesOf(real)));
    }),
    { numRuns: 300 },
  );
});

test("LightHeaders is a Headers: it initialises from records, pairs and other headers, and undici copies it", () => {
  const light = new LightHeaders({ "Content-Type": "text/plain", vary: "accept" });
  assert.ok(light instanceof Headers);
  assert.deepEqual([...new LightHeaders([["a", "1"], ["a", "2"]])], [["a", "1, 2"]]);
  assert.deepEqual([...new LightHeaders(new Headers({ b: "2" }))], [["b", "2"]]);
  assert.throws(() => new LightHeaders([["a"]] as unknown as string[][]), TypeError);
  const response = new Response("x", { headers: light });
  assert.equal(response.headers.get("content-type"), "text/plain");
  assert.deepEqual(Object.fromEntries(new Headers(light)), { "content-type": "text/plain", vary: "accept" });
});

test("names stay checked once many distinct names were seen (the kept checks are bounded)", () => {
  const headers = new LightHeaders();
  for (let i = 0; i < 600; i++) headers.set(`X-Name-${i}`, "v");
  assert.equal(headers.get("x-name-599"), "v");
  assert.throws(() => headers.set("Bad Name", "v"), TypeError);
  headers.set("X-Late", "w");
  assert.deepEqual(linesOf(headers).slice(-2), ["x-late", "w"]);
});
