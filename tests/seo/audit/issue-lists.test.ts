/** The checks per URL, each distinct list kept once: read back exactly as a Map of arrays would hold them. */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { CheckId } from "../../../src/seo/audit/catalogue.ts";
import { IssueLists } from "../../../src/seo/audit/issue-lists.ts";

/** The Map of arrays the collector kept before, as the reference. */
function reference(steps: [string, CheckId, "add" | "remove"][]): Map<string, CheckId[]> {
  const map = new Map<string, CheckId[]>();
  for (const [url, id, op] of steps) {
    if (op === "add") map.set(url, map.get(url)?.concat(id) ?? [id]);
    else {
      const left = map.get(url)?.filter((other) => other !== id);
      if (left === undefined) continue;
      if (left.length > 0) map.set(url, left);
      else map.delete(url);
    }
  }
  return map;
}

test("issue lists: the same ids per URL, repeats and first-hit order as a Map of arrays, lists shared by URLs", () => {
  const ids: CheckId[] = ["title-missing", "meta-description-missing", "h1-missing", "thin-content"];
  const steps: [string, CheckId, "add" | "remove"][] = [];
  let seed = 3;
  const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % 1000;
  for (let i = 0; i < 3000; i++) steps.push([`/p/${next() % 200}`, ids[next() % ids.length] as CheckId, next() < 150 ? "remove" : "add"]);
  const lists = new IssueLists();
  for (const [url, id, op] of steps) {
    if (op === "add") lists.add(url, id);
    else lists.remove(url, id);
  }
  const expected = reference(steps);
  assert.deepEqual([...lists], [...expected]);
  assert.equal(lists.size, expected.size);
  for (const [url, list] of expected) assert.deepEqual(lists.get(url), list);
  assert.equal(lists.get("/never"), undefined);
  lists.remove("/never", "title-missing");
  // Two URLs hit by the same checks in the same order hold the same list, not copies.
  lists.add("/a", "title-missing");
  lists.add("/a", "h1-missing");
  lists.add("/b", "title-missing");
  lists.add("/b", "h1-missing");
  assert.equal(lists.get("/a"), lists.get("/b"));
});
