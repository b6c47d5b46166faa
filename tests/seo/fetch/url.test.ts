import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { hostOfUrl, normaliseUrl, originOfUrl, pathOfUrl } from "../../../src/seo/fetch/url.ts";

const sameAsUrl = (text: string) => {
  const url = new URL(text);
  assert.equal(originOfUrl(text), url.origin, text);
  assert.equal(hostOfUrl(text), url.host, text);
  assert.equal(pathOfUrl(text), url.pathname, text);
};

test("origin, host and path read off a URL agree with WHATWG URL, canonical spelling or not", () => {
  for (const text of [
    "https://example.com/a/b?c=d#e",
    "https://example.com",
    "http://example.com:80/x",
    "https://example.com:443/",
    "http://127.0.0.1:8080/p?q",
    "http://[::1]:3000/docs/#top",
    "HTTP://EXAMPLE.com/A",
    "http://user:pass@example.com/private",
    "https://www.example.com:8443/%7Euser",
  ])
    sameAsUrl(text);
  fc.assert(
    fc.property(fc.webUrl({ withQueryParameters: true, withFragments: true }), (raw) => {
      sameAsUrl(raw);
      const canonical = normaliseUrl(raw);
      if (canonical !== undefined) sameAsUrl(canonical);
    }),
    { numRuns: 2000 },
  );
  assert.equal(pathOfUrl("not a url"), undefined);
  assert.throws(() => originOfUrl("not a url"));
});
