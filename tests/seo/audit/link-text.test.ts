/** Generic link text and the attributes that describe a link however short its text. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { genericText, labelled } from "../../../src/seo/audit/link-text.ts";

test("a generic phrase is found whatever its case and spacing; a describing text is not", () => {
  assert.equal(genericText("  Click\n  HERE "), "click here");
  assert.equal(genericText("Read more"), "read more");
  assert.equal(genericText("Read more about pricing"), undefined);
  assert.equal(genericText(`${" ".repeat(30)}here`), undefined, "past the longest phrase with room for spaces");
});

test("a title, aria-label or aria-labelledby describes the link unless it is generic itself", () => {
  assert.equal(labelled({ title: "Go language: the tour" }), true);
  assert.equal(labelled({ "aria-labelledby": "tab-go" }), true);
  assert.equal(labelled({ "aria-label": " Click   here " }), false);
  assert.equal(labelled({ title: "" }), false);
  assert.equal(labelled({}), false);
});
