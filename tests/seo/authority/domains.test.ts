import assert from "node:assert/strict";
import { test } from "node:test";
import { normaliseDomain } from "../../../src/seo/authority/domains.ts";

test("normaliseDomain() accepts hosts and URLs, answers the bare host, rejects the rest", () => {
  assert.equal(normaliseDomain("https://WWW.Example.com/path?q=1"), "example.com");
  assert.equal(normaliseDomain("shop.example.co.uk/"), "shop.example.co.uk");
  assert.equal(normaliseDomain("münchen.de"), "xn--mnchen-3ya.de");
  assert.equal(normaliseDomain("localhost"), undefined);
  assert.equal(normaliseDomain("10.0.0.1"), undefined);
  assert.equal(normaliseDomain("bad_host.com"), undefined);
  assert.equal(normaliseDomain("http://["), undefined);
});
