/** The embedded data set as run from source: snapshot bytes of the fixture, converted once. */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { embeddedSnapshot } from "../../../shim/embedded/charging-snapshot.ts";
import { isSnapshot, openSnapshot, parseDatasetFile } from "../../../src/charging/mod.ts";

test("the embedded snapshot holds every site of fixtures/charging/sites.json, converted once", () => {
  const bytes = embeddedSnapshot();
  assert.ok(isSnapshot(bytes));
  const { sites } = parseDatasetFile(JSON.parse(readFileSync("fixtures/charging/sites.json", "utf8")));
  assert.equal(openSnapshot(bytes).size, sites.length);
  assert.equal(embeddedSnapshot(), bytes, "the same bytes on the second call");
});
