/** Signs of a script-built page: mount points, inline redirects, script types that run. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { isJavaScript, mountPoint, scriptRedirect } from "../../../src/seo/audit/script-signs.ts";

test("a framework's mount id or a custom element outside scripts is a mount point", () => {
  assert.equal(mountPoint("div", { id: " __next " }, false), '<div id="__next">');
  assert.equal(mountPoint("div", { id: "ROOT" }, true), '<div id="ROOT">');
  assert.equal(mountPoint("app-root", {}, false), "<app-root>");
  assert.equal(mountPoint("app-root", {}, true), undefined, "inside a template or script");
  assert.equal(mountPoint("div", { id: "content" }, false), undefined);
});

test("an inline script setting location to a literal names where it sends the browser", () => {
  assert.equal(scriptRedirect('window.location.href = "/new/";'), "/new/");
  assert.equal(scriptRedirect("location.replace('https://example.org/b')"), "https://example.org/b");
  assert.equal(scriptRedirect("location = next;"), undefined);
});

test("no type, the JavaScript types and modules run; JSON-LD and templates do not", () => {
  for (const type of [undefined, "", "text/javascript", "application/javascript", "module"]) assert.equal(isJavaScript(type), true, String(type));
  for (const type of ["application/ld+json", "text/template"]) assert.equal(isJavaScript(type), false, type);
});
