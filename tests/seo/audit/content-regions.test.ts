/** The layout regions the parser is in: main content, boilerplate, and same-named elements nested in them. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { ContentRegions } from "../../../src/seo/audit/content-regions.ts";

test("main content and boilerplate open by element or role and close with their own tag", () => {
  const regions = new ContentRegions();
  regions.enter("div", "main");
  assert.equal(regions.inMain, true);
  regions.enter("nav", "");
  assert.deepEqual([regions.inMain, regions.inBoilerplate], [true, true]);
  regions.leave("nav");
  assert.equal(regions.inBoilerplate, false);
  regions.leave("div");
  assert.equal(regions.inMain, false);
  regions.enter("section", "contentinfo");
  assert.equal(regions.inBoilerplate, true);
});

test("a same-named element inside a region does not close it", () => {
  const regions = new ContentRegions();
  regions.enter("article", "");
  regions.enter("article", "");
  regions.enter("div", "");
  regions.leave("div");
  regions.leave("article");
  regions.leave("article");
  assert.equal(regions.inMain, false, "two regions opened, two closed");
  regions.enter("header", "");
  regions.enter("div", "");
  regions.enter("div", "");
  assert.equal(regions.inBoilerplate, true);
  regions.leave("header");
  assert.equal(regions.inBoilerplate, false);
  regions.leave("div");
  assert.equal(regions.inBoilerplate, false, "a tag no region opened with changes nothing");
});
