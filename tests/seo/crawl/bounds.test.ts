import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import {
  boundsFrom,
  boundsInput,
  cliBoundsInput,
  describeToolBounds,
  politenessProblem,
} from "../../../src/seo/audit/bounds-input.ts";
import { CAPS, DEFAULTS } from "../../../src/seo/crawl/bounds.ts";
import { urlPattern } from "../../../src/seo/crawl/frontier.ts";
import { SeenSet } from "../../../src/seo/crawl/seen-set.ts";
import { toLocal, twinFromCanonical, twinFromOption, twinFromPages } from "../../../src/seo/crawl/twin.ts";
import { isOwnMachine, normaliseUrl } from "../../../src/seo/fetch/url.ts";
import { v } from "../../../deps.ts";

test("host classes: the user's own machine or network gets own-machine defaults, the rest is remote", () => {
  const own = [
    "http://localhost:3000/",
    "http://app.localhost/",
    "http://127.0.0.1:8080/",
    "http://127.1.2.3/",
    "http://[::1]:4000/",
    "http://[::ffff:127.0.0.1]/",
    "http://10.1.2.3/",
    "http://172.20.0.5/",
    "http://192.168.1.10:8000/",
    "http://169.254.10.1/",
    "http://[fd12:3456::1]/",
    "http://[fe80::1]/",
    "http://mybox.local/",
    "http://shop.test/",
    "http://api.internal/",
    "http://nas.home.arpa/",
    "http://localhost./",
    "http://devbox:3000/",
    "http://web/",
  ];
  const remote = [
    "https://example.com/",
    "http://172.32.0.1/",
    "http://100.64.0.1/",
    "http://8.8.8.8/",
    "https://localhost.example.com/",
    "https://testing.com/",
    "https://local.example/",
    "http://[2001:db8::1]/",
    "http://1.2.3.4/",
  ];
  for (const url of own) assert.equal(isOwnMachine(new URL(url)), true, url);
  for (const url of remote) assert.equal(isOwnMachine(new URL(url)), false, url);
});

test("defaults: remote sites stay polite; own machine finishes 1,000 pages (tool) or 10,000 (CLI) without a gap", () => {
  const remote = boundsFrom({}, "remote", "tool");
  assert.deepEqual(
    [remote.maxPages, remote.minIntervalMs, remote.concurrency, remote.maxSeconds],
    [100, 500, 2, 60],
  );
  const tool = boundsFrom({}, "own-machine", "tool");
  assert.deepEqual([tool.maxPages, tool.minIntervalMs, tool.concurrency, tool.maxDepth], [1000, 0, 8, 10]);
  const cli = boundsFrom({}, "own-machine", "cli");
  assert.deepEqual([cli.maxPages, cli.maxSeconds], [10_000, 600]);
  assert.equal(boundsFrom({ check_resources: false, max_pages: 7 }, "remote").maxResources, 0);
  assert.equal(boundsFrom({ max_pages: 7 }, "remote").maxResources, 7);
  assert.equal(DEFAULTS.cli.remote.maxPages, 100);
  assert.match(describeToolBounds(), /own machine.*1000 pages.*caps 5000 pages.*1,000,000 pages/);
});

test("caps: the tool stops at 5,000 pages, the CLI at 1,000,000 (beyond 100,000 on disk); remote politeness cannot be switched off", () => {
  const tool = v.object(boundsInput);
  const cli = v.object(cliBoundsInput);
  assert.equal(v.safeParse(tool, { max_pages: 5000 }).success, true);
  assert.equal(v.safeParse(tool, { max_pages: 5001 }).success, false);
  assert.equal(v.safeParse(cli, { max_pages: CAPS.cli.maxPages }).success, true);
  assert.equal(v.safeParse(cli, { max_pages: CAPS.cli.maxPages + 1 }).success, false);
  assert.equal(v.safeParse(tool, { production_url: "javascript:alert(1)" }).success, false);
  assert.equal(v.safeParse(tool, { production_url: "none" }).success, true);
  assert.match(politenessProblem({ min_interval_ms: 0 }, "remote") ?? "", /at least 100|100 or more/);
  assert.match(politenessProblem({ concurrency: 5 }, "remote") ?? "", /4 or less/);
  assert.equal(politenessProblem({ min_interval_ms: 0, concurrency: 32 }, "own-machine"), undefined);
});

test("twin from a canonical: same path, production under a prefix, the copy under a prefix; root must match", () => {
  const local = "http://localhost:3000";
  assert.deepEqual(twinFromCanonical(`${local}/docs/a`, "https://example.com/docs/a", "start-page"), {
    origin: "https://example.com",
    remotePrefix: "",
    localPrefix: "",
    via: "start-page",
  });
  const prefixed = twinFromCanonical(`${local}/intro`, "https://example.com/docs/intro", "canonicals");
  assert.deepEqual([prefixed?.remotePrefix, prefixed?.localPrefix], ["/docs", ""]);
  const copy = twinFromCanonical(`${local}/v2/intro`, "https://example.com/intro", "canonicals");
  assert.deepEqual([copy?.remotePrefix, copy?.localPrefix], ["", "/v2"]);
  assert.equal(twinFromCanonical(`${local}/`, "https://example.com/docs/", "start-page"), undefined);
  assert.equal(twinFromCanonical(`${local}/a`, "https://example.com/b", "start-page"), undefined);
  assert.equal(twinFromCanonical(`${local}/a`, `${local}/b`, "start-page"), undefined, "same origin is no twin");
  assert.equal(twinFromCanonical(`${local}/a?x=1`, "https://example.com/a", "start-page"), undefined);
  assert.equal(twinFromCanonical("not a url", "https://example.com/a", "start-page"), undefined);
});

test("toLocal maps the twin's URLs under its prefix only, never a look-alike host", () => {
  const twin = twinFromOption("http://localhost:3000/", "https://example.com/docs/");
  assert.deepEqual([twin?.remotePrefix, twin?.localPrefix], ["/docs", ""]);
  const map = (url: string) => toLocal(url, twin, "http://localhost:3000");
  assert.equal(map("https://example.com/docs/intro?x=1"), "http://localhost:3000/intro?x=1");
  assert.equal(map("https://example.com/docs"), "http://localhost:3000/");
  assert.equal(map("https://example.com/docsx/intro"), "https://example.com/docsx/intro");
  assert.equal(map("https://example.com.evil/docs/a"), "https://example.com.evil/docs/a");
  assert.equal(map("https://other.example/docs/a"), "https://other.example/docs/a");
  assert.equal(twinFromOption("http://localhost:3000/", "http://localhost:3000/x"), undefined);
  assert.equal(twinFromOption("http://localhost:3000/", "nope"), undefined);
});

test("toLocal (fuzzed): never throws, maps only URLs on the twin's origin, and lands on the audited origin", () => {
  const twin = twinFromOption("http://127.0.0.1:8080/site/", "https://example.com/");
  fc.assert(
    fc.property(fc.oneof(fc.webUrl({ withQueryParameters: true, withFragments: true }), fc.string()), (url) => {
      const out = toLocal(url, twin, "http://127.0.0.1:8080");
      if (out !== url) {
        assert.ok(url.startsWith("https://example.com"), url);
        assert.ok(out.startsWith("http://127.0.0.1:8080/site"), out);
      }
    }),
    { numRuns: 2000 },
  );
});

test("twin from many pages: the origin most foreign canonicals name with their own paths", () => {
  const pairs = ["/a", "/b", "/c"].map((p) => ({ url: `http://localhost:1${p}`, canonical: `https://prod.example${p}` }));
  assert.equal(twinFromPages(pairs)?.origin, "https://prod.example");
  assert.equal(twinFromPages(pairs.slice(0, 1)), undefined, "one page is not enough");
  const syndicated = [
    ...pairs.slice(0, 2),
    ...["/x", "/y", "/z"].map((p) => ({ url: `http://localhost:1${p}`, canonical: `https://news.example/other${p}1` })),
  ];
  assert.equal(twinFromPages(syndicated), undefined, "most foreign canonicals do not match their paths");
});

test("SeenSet agrees with a Set of strings and refuses past its cap (fuzzed)", () => {
  fc.assert(
    fc.property(fc.array(fc.string({ maxLength: 30 }), { maxLength: 400 }), (items) => {
      const seen = new SeenSet(1_000_000);
      const reference = new Set<string>();
      for (const item of items) {
        assert.equal(seen.add(item), reference.has(item) ? "present" : "added");
        reference.add(item);
      }
      assert.equal(seen.size, reference.size);
      for (const item of items) assert.equal(seen.has(item), true);
    }),
    { numRuns: 300 },
  );
  const capped = new SeenSet(2);
  assert.deepEqual(["a", "b", "c", "a"].map((x) => capped.add(x)), ["added", "added", "full", "present"]);
});

test("urlPattern groups endless URL spaces: numbers, ids and query values become *", () => {
  assert.equal(urlPattern("http://h/calendar?month=7&year=2031"), "http://h/calendar?month=*&year=*");
  assert.equal(urlPattern("http://h/p/123/edit"), "http://h/p/*/edit");
  assert.equal(urlPattern("http://h/item/9f86d081884c7d65/x"), "http://h/item/*/x");
  assert.equal(urlPattern("http://h/a;jsessionid=ABC123"), "http://h/a;jsessionid=*");
  assert.equal(urlPattern("http://h/about"), "http://h/about");
  assert.equal(urlPattern("http://127.0.0.1:8080/docs/api/api-238"), "http://127.0.0.1:8080/docs/api/api-*");
  assert.equal(urlPattern("https://h/2024/05/post-7?page=2"), "https://h/*/*/post-*?page=*");
});

test("normaliseUrl's plain-path shortcut gives what WHATWG URL parsing gives (fuzzed)", () => {
  const chars = fc.constantFrom(..."/./..abcXYZ019-_~!$&'()*+,;=:@%2F%41 ?#\\\"<>`{}é".split(""));
  const origins = ["http://127.0.0.1:8080", "https://example.com", "http://[::1]:3000", "HTTPS://Example.com", "https://www.example.com:443"];
  const href = fc.oneof(
    fc.array(chars, { maxLength: 24 }).map((c) => `/${c.join("")}`),
    fc.array(chars, { maxLength: 24 }).map((c) => c.join("")),
    fc.tuple(fc.constantFrom(...origins), fc.array(chars, { maxLength: 24 })).map(([o, c]) => `${o}/${c.join("")}`),
  );
  const base = fc.constantFrom(
    "http://127.0.0.1:8080/p/5",
    "https://example.com/docs/",
    "http://[::1]:3000/a/b?x=1",
    "https://www.example.com",
  );
  fc.assert(
    fc.property(href, base, (h, b) => {
      assert.equal(normaliseUrl(h, b), normaliseUrl(h, new URL(b)), `${h} against ${b}`);
    }),
    { numRuns: 5000 },
  );
  assert.equal(normaliseUrl("/p/1#top", "http://h/"), "http://h/p/1");
  assert.equal(normaliseUrl("http://h/a#", undefined), "http://h/a");
});
