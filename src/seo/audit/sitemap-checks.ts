/**
 * Sitemap checks: each file's own problems, listed URLs against what the crawl found there, and
 * listed URLs against where the site is really served (host and path prefix).
 * @module
 */
import type { CrawlResult } from "../crawl/crawler.ts";
import type { SitemapFile } from "../sitemap/discover.ts";
import { isValidHreflang } from "./directives.ts";
import type { Hit } from "./finding.ts";
import { isIndexable } from "./page-summary.ts";
import { statusText } from "./entry-status.ts";
import type { PageFacts } from "./page-facts.ts";

type Add = (hit: Hit) => void;

function fileChecks(file: SitemapFile, add: Add): void {
  if (file.badLastmod)
    add({
      id: "sitemap-lastmod-invalid",
      url: file.url,
      evidence: `<lastmod> not W3C Datetime or in the future: ${file.badLastmod.join(", ")}`,
    });
  if (file.kind === "invalid")
    add({ id: "sitemap-invalid", url: file.url, evidence: `${file.error ?? "invalid"} (found via ${file.via})` });
  hreflangFileCheck(file, add);
}

/** A file's hreflang annotations: codes that are not valid, alternates that do not list an entry back. */
function hreflangFileCheck(file: SitemapFile, add: Add): void {
  const hreflang = file.hreflang;
  if (!hreflang) return;
  const invalid = hreflang.codes.filter((code) => !isValidHreflang(code));
  const problems = [
    ...(invalid.length > 0 ? [`invalid codes ${invalid.slice(0, 3).join(", ")}`] : []),
    ...(hreflang.missingReturn.count > 0
      ? [`${hreflang.missingReturn.count} entry(ies) whose alternate does not list it back, e.g. ${hreflang.missingReturn.examples[0]}`]
      : []),
  ];
  if (problems.length > 0)
    add({ id: "sitemap-hreflang-invalid", url: file.url, evidence: `${hreflang.entries} annotated entries: ${problems.join("; ")}` });
}

/** The directory every page reached by links shares: "/docs/" when the site lives under /docs/. */
function servedPrefix(crawl: CrawlResult): string | undefined {
  let prefix: string | undefined;
  for (const e of crawl.entries.values()) {
    if (e.kind !== "page" || e.state !== "done" || e.status !== 200 || e.depth === undefined || e.hops) continue;
    const path = new URL(e.url).pathname;
    const dir = path.slice(0, path.lastIndexOf("/") + 1);
    if (prefix === undefined) prefix = dir;
    while (!dir.startsWith(prefix)) prefix = prefix.slice(0, prefix.lastIndexOf("/", prefix.length - 2) + 1);
    if (prefix === "/") return prefix;
  }
  return prefix;
}

/**
 * Entries that do not match the served pages, one hit per file: on another host (neither this
 * site nor its production twin), or outside the directory the crawled pages share.
 */
function mismatchChecks(crawl: CrawlResult, add: Add): void {
  const sitemaps = crawl.sitemaps;
  if (!sitemaps) return;
  const problems = new Map<string, string[]>();
  const note = (url: string, text: string) => problems.set(url, [...(problems.get(url) ?? []), text]);
  for (const file of sitemaps.files)
    if (file.foreign)
      note(file.url, `${file.foreign.count} of ${file.urls} entries on another host, e.g. ${file.foreign.examples[0]}`);
  const prefix = servedPrefix(crawl);
  const file = sitemaps.files.find((f) => f.kind === "urlset") ?? sitemaps.files[0];
  if (prefix !== undefined && prefix !== "/" && file) {
    const outside = sitemaps.urls.filter((url) => !new URL(url).pathname.startsWith(prefix));
    if (outside.length > 0)
      note(
        file.url,
        `${outside.length} of ${sitemaps.urls.length} entries outside ${prefix}, where the crawled pages are, e.g. ${outside[0]}`,
      );
  }
  for (const [url, texts] of problems) add({ id: "sitemap-url-mismatch", url, evidence: texts.join("; ") });
}

function listedChecks(crawl: CrawlResult, pages: PageFacts, local: (url: string) => string, add: Add) {
  for (const e of crawl.entries.values()) {
    if (!e.inSitemap || e.state !== "done") continue;
    const s = pages.get(e.url);
    if (e.status !== 200 || (e.hops ?? 0) > 0)
      add({
        id: "sitemap-non-200",
        url: e.url,
        evidence: (e.hops ?? 0) > 0 ? `redirects to ${e.finalUrl}` : statusText(e),
      });
    else if (s?.noindex) add({ id: "sitemap-noindex", url: e.url, evidence: "listed but noindex" });
    else if (s?.canonical && local(s.canonical) !== e.url)
      add({ id: "sitemap-non-canonical", url: e.url, evidence: `canonical is ${s.canonical}` });
    if (e.inlinks === 0 && e.url !== crawl.start && e.status === 200)
      add({ id: "orphan-page", url: e.url, evidence: "in the sitemap, but no crawled page links to it" });
  }
}

export function sitemapChecks(
  crawl: CrawlResult,
  pages: PageFacts,
  local: (url: string) => string,
  add: Add,
): void {
  const sitemaps = crawl.sitemaps;
  if (!sitemaps) return;
  for (const file of sitemaps.files) fileChecks(file, add);
  if (sitemaps.files.every((f) => f.kind === "absent"))
    add({
      id: "sitemap-missing",
      url: crawl.start,
      evidence: `no Sitemap: line in robots.txt, no <link rel="sitemap">, and ${sitemaps.files.map((f) => new URL(f.url).pathname).join(", ")} were not found`,
    });
  mismatchChecks(crawl, add);
  listedChecks(crawl, pages, local, add);
  const used = sitemaps.files.filter((f) => f.kind === "urlset" || f.kind === "index");
  if (used.length === 0 || sitemaps.urls.length === 0) return;
  for (const s of pages.values()) {
    const e = crawl.entries.get(s.url);
    if (e && !e.inSitemap && isIndexable(s, local))
      add({ id: "sitemap-missing-page", url: s.url, evidence: "indexable, crawled from links, not in any sitemap" });
  }
}
