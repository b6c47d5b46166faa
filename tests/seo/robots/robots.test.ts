import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { parseRobots, patternMatches } from "../../../src/seo/robots/robots.ts";

interface Case {
  name: string;
  robotstxt: string;
  useragent: string;
  url: string;
  allowed: boolean;
}

// google/robotstxt RFC 9309 cases, Apache-2.0; source and exclusions in fixtures/seo/robots-cases.README.md.
const cases = (JSON.parse(readFileSync("fixtures/seo/robots-cases.json", "utf8")) as { cases: Case[] }).cases;

/** The path and query exactly as written in the URL string (Google's GetPathParamsQuery). */
function rawPath(url: string): string {
  const afterScheme = url.replace(/^[a-z]+:\/\/[^/?#]*/i, "");
  const path = afterScheme.replace(/#.*$/, "");
  return path.startsWith("/") ? path : `/${path}`;
}

test("every RFC 9309 case from google/robotstxt is decided as expected", () => {
  assert.ok(cases.length >= 59);
  const failed = cases.filter(
    (c) => parseRobots(c.robotstxt, c.useragent).isAllowed(rawPath(c.url)) !== c.allowed,
  );
  assert.deepEqual(
    failed.map((c) => c.name),
    [],
  );
});

test("RFC 9309 §5 example: longest match, allow ties, wildcards", () => {
  const text = [
    "User-Agent: *",
    "Disallow: *.gif$",
    "Disallow: /example/",
    "Allow: /publications/",
    "",
    "User-Agent: foobot",
    "Disallow:/",
    "Allow:/example/page.html",
    "Allow:/example/allowed.gif",
    "",
    "User-Agent: barbot",
    "User-Agent: bazbot",
    "Disallow: /example/page.html",
    "",
    "User-Agent: quxbot",
    "",
    "EOF",
  ].join("\n");
  const foo = parseRobots(text, "FooBot");
  assert.equal(foo.isAllowed("/example/page.html"), true);
  assert.equal(foo.isAllowed("/example/allowed.gif"), true);
  assert.equal(foo.isAllowed("/other"), false);
  assert.equal(foo.isAllowed("/robots.txt"), true);
  const bar = parseRobots(text, "BarBot");
  assert.equal(bar.isAllowed("/example/page.html"), false);
  assert.equal(bar.isAllowed("/example/other.gif"), true);
  const other = parseRobots(text, "OtherBot");
  assert.equal(other.isAllowed("/a/b.gif"), false);
  assert.equal(other.isAllowed("/a/b.gifx"), true);
  assert.equal(other.isAllowed("/example/x"), false);
  assert.equal(other.isAllowed("/publications/x"), true);
  const qux = parseRobots(text, "quxbot");
  assert.equal(qux.isAllowed("/example/x"), true);
});

test("crawl-delay, sitemaps, parse limit, percent-encoding case", () => {
  const robots = parseRobots(
    "Sitemap: http://a/s.xml\nUser-agent: *\nCrawl-delay: 3\nDisallow: /%7euser\n",
    "SeoAuditMcp",
  );
  assert.equal(robots.crawlDelay, 3);
  assert.deepEqual(robots.sitemaps, ["http://a/s.xml"]);
  assert.equal(robots.isAllowed("/%7Euser/x"), false);
  const padded = `User-agent: *\n${"#".repeat(600 * 1024)}\nDisallow: /\n`;
  assert.equal(parseRobots(padded, "x").isAllowed("/a"), true, "rules past 500 KiB are ignored");
  assert.equal(patternMatches("/a*b$", "/axxb"), true);
  assert.equal(patternMatches("/a*b$", "/axxbc"), false);
  assert.equal(patternMatches("*$", "/anything"), true);
});

test("robots.txt outcomes per RFC 9309 §2.3.1: 2xx parsed, 4xx allow, 5xx/429/unreachable disallow, too many redirects", async () => {
  const { robotsInfoOf } = await import("../../../src/seo/robots/robots-cache.ts");
  const page = (status: number, body = "", error?: string) => ({
    url: "http://a/robots.txt",
    finalUrl: "http://a/robots.txt",
    status,
    headers: new Headers(),
    redirects: [],
    body,
    truncated: false,
    bytes: body.length,
    timingMs: 1,
    ...(error ? { error } : {}),
  });
  const outcome = (p: ReturnType<typeof page>) => {
    const info = robotsInfoOf("http://a/robots.txt", p, "SeoAuditMcp");
    return [info.outcome, info.robots.isAllowed("/x")];
  };
  assert.deepEqual(outcome(page(200, "User-agent: *\nDisallow: /x\n")), ["parsed", false]);
  assert.deepEqual(outcome(page(404)), ["allow-all", true]);
  assert.deepEqual(outcome(page(403)), ["allow-all", true]);
  assert.deepEqual(outcome(page(429)), ["disallow-all", false]);
  assert.deepEqual(outcome(page(503)), ["disallow-all", false]);
  assert.deepEqual(outcome(page(0, "", "ECONNREFUSED")), ["disallow-all", false]);
  assert.deepEqual(outcome(page(301, "", "more than 5 redirects")), ["allow-all", true]);
  assert.equal(robotsInfoOf("http://a/robots.txt", page(503), "x").robots.isAllowed("/robots.txt"), true);
});
