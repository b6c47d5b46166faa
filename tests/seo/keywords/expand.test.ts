import assert from "node:assert/strict";
import { test } from "node:test";
import { expansions } from "../../../src/seo/keywords/expand.ts";

test("expansions(): seed, English question forms, then a..z; the seed only when not expanding", () => {
  const en = expansions("  ev   charging ", "en", true);
  assert.equal(en[0], "ev charging");
  assert.equal(en[1], "how ev charging");
  assert.equal(en.at(-1), "ev charging z");
  assert.equal(en.length, 1 + 10 + 26);
  assert.equal(expansions("laden", "de", true).length, 27);
  assert.deepEqual(expansions("x y", "en", false), ["x y"]);
});
