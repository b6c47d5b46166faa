/**
 * Site-level checks: judgements that need the whole crawl (link targets' statuses, duplicates,
 * canonical and hreflang targets, sitemaps against what was crawled).
 * @module
 */
import type { CrawlResult } from "../crawl/crawler.ts";
import type { UrlEntry } from "../crawl/frontier.ts";
import { normaliseUrl } from "../crawl/url.ts";
import { THRESHOLDS } from "./catalogue.ts";
import type { Hit } from "./finding.ts";
import type { PageSummary } from "./page.ts";
import { nearDuplicateGroups } from "./simhash.ts";

type Add = (hit: Hit) => void;

const broken = (e: UrlEntry) =>
  e.state === "done" && (e.status === 0 || (e.status ?? 0) >= 400 || /loop|more than/.test(e.error ?? ""));
const linkedFrom = (e: UrlEntry) =>
  e.referrer
    ? `linked from ${e.referrer}${e.inlinks > 1 ? ` (+${e.inlinks - 1} more)` : ""}`
    : "listed in the sitemap";
const statusText = (e: UrlEntry) => (e.status ? `status ${e.status}` : (e.error ?? "no response"));

/** 200 HTML, not noindex, canonical to itself (or none): the pages meant to rank. */
export function isIndexable(s: PageSummary): boolean {
  return (
    s.status === 200 &&
    s.isHtml &&
    !s.noindex &&
    (s.canonical === undefined || s.canonical === normaliseUrl(s.finalUrl))
  );
}

function linkChecks(crawl: CrawlResult, add: Add): void {
  for (const e of crawl.entries.values()) {
    if (e.kind === "resource") {
      if (broken(e))
        add({
          id: "broken-resource",
          url: e.url,
          evidence: `${statusText(e)}; used on ${e.referrer ?? "a crawled page"}`,
        });
      continue;
    }
    if (e.inlinks > 0 && broken(e))
      add({ id: "broken-internal-link", url: e.url, evidence: `${statusText(e)}; ${linkedFrom(e)}` });
    if (e.inlinks > 0 && e.state === "done" && (e.hops ?? 0) > 0 && !broken(e))
      add({ id: "link-to-redirect", url: e.url, evidence: `redirects to ${e.finalUrl}; ${linkedFrom(e)}` });
    if (e.state === "blocked" && (e.inlinks > 0 || e.inSitemap))
      add({
        id: "robots-blocked-linked",
        url: e.url,
        evidence: `disallowed by robots.txt; ${linkedFrom(e)}`,
      });
    if (
      e.state === "done" &&
      e.depth !== undefined &&
      e.depth > THRESHOLDS.deepPage.value &&
      e.status === 200
    )
      add({ id: "deep-page", url: e.url, evidence: `${e.depth} clicks from the start URL` });
  }
  for (const info of crawl.robots) {
    if (info.outcome === "disallow-all")
      add({ id: "robots-txt-unreachable", url: info.url, evidence: info.reason });
  }
  for (const origin of crawl.stoppedHosts)
    add({
      id: "host-stopped",
      url: origin,
      evidence: "5 consecutive 5xx/429 answers; its remaining URLs were skipped",
    });
}

function canonicalChecks(crawl: CrawlResult, pages: Map<string, PageSummary>, add: Add): void {
  for (const s of pages.values()) {
    const self = normaliseUrl(s.finalUrl);
    if (!s.canonical || s.canonical === self) continue;
    const target = crawl.entries.get(s.canonical);
    if (target?.state !== "done") continue;
    if ((target.hops ?? 0) > 0)
      add({
        id: "canonical-to-redirect",
        url: s.url,
        evidence: `canonical ${s.canonical} redirects to ${target.finalUrl}`,
      });
    else if (target.status !== 200)
      add({
        id: "canonical-to-non-200",
        url: s.url,
        evidence: `canonical ${s.canonical}: ${statusText(target)}`,
      });
    else {
      const next = pages.get(s.canonical)?.canonical;
      if (next && next !== s.canonical)
        add({ id: "canonical-chain", url: s.url, evidence: `${s.url} → ${s.canonical} → ${next}` });
    }
  }
}

function duplicateChecks(pages: Map<string, PageSummary>, add: Add): void {
  const indexable = [...pages.values()].filter(isIndexable);
  for (const [id, key] of [
    ["title-duplicate", "title"],
    ["meta-description-duplicate", "description"],
  ] as const) {
    const groups = new Map<string, string[]>();
    for (const s of indexable) {
      const text = s[key]?.trim().toLowerCase();
      if (!text) continue;
      const group = groups.get(text);
      if (group) group.push(s.url);
      else groups.set(text, [s.url]);
    }
    for (const [text, urls] of groups) {
      if (urls.length < 2) continue;
      for (const url of urls)
        add({ id, url, evidence: `shared by ${urls.length} pages: "${text.slice(0, 80)}"` });
    }
  }
  const hashed = indexable.flatMap((s) => (s.simhash ? [{ hash: s.simhash, item: s.url }] : []));
  for (const group of nearDuplicateGroups(hashed)) {
    for (const url of group) {
      const other = group.find((u) => u !== url);
      add({
        id: "near-duplicate-content",
        url,
        evidence: `near-duplicate of ${other}${group.length > 2 ? ` (+${group.length - 2} more)` : ""}`,
      });
    }
  }
}

function hreflangChecks(pages: Map<string, PageSummary>, add: Add): void {
  for (const s of pages.values()) {
    const self = normaliseUrl(s.finalUrl);
    const missing = s.hreflang.filter((alt) => {
      const target = alt.url === self ? undefined : pages.get(alt.url);
      return target?.status === 200 && !target.hreflang.some((back) => back.url === self);
    });
    const first = missing[0];
    if (first) {
      const more = missing.length > 1 ? ` (+${missing.length - 1} more)` : "";
      add({
        id: "hreflang-missing-return",
        url: s.url,
        evidence: `${first.url} (${first.lang}) does not link back${more}`,
      });
    }
  }
}

function sitemapChecks(crawl: CrawlResult, pages: Map<string, PageSummary>, add: Add): void {
  const sitemaps = crawl.sitemaps;
  if (!sitemaps) return;
  for (const file of sitemaps.files) {
    if (file.badLastmod)
      add({
        id: "sitemap-lastmod-invalid",
        url: file.url,
        evidence: `<lastmod> not W3C Datetime or in the future: ${file.badLastmod.join(", ")}`,
      });
    if (file.kind === "invalid")
      add({
        id: "sitemap-invalid",
        url: file.url,
        evidence: `${file.error ?? "invalid"} (found via ${file.via})`,
      });
  }
  const used = sitemaps.files.filter((f) => f.kind === "urlset" || f.kind === "index");
  if (sitemaps.files.every((f) => f.kind === "absent"))
    add({
      id: "sitemap-missing",
      url: crawl.start,
      evidence: "no Sitemap: line in robots.txt and /sitemap.xml answered 404",
    });
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
    else if (s?.canonical && s.canonical !== e.url)
      add({ id: "sitemap-non-canonical", url: e.url, evidence: `canonical is ${s.canonical}` });
    if (e.inlinks === 0 && e.url !== crawl.start && e.status === 200)
      add({ id: "orphan-page", url: e.url, evidence: "in the sitemap, but no crawled page links to it" });
  }
  if (used.length === 0 || sitemaps.urls.length === 0) return;
  for (const s of pages.values()) {
    const e = crawl.entries.get(s.url);
    if (e && !e.inSitemap && isIndexable(s))
      add({
        id: "sitemap-missing-page",
        url: s.url,
        evidence: "indexable, crawled from links, not in any sitemap",
      });
  }
}

/** Runs every site-level check. */
export function siteHits(crawl: CrawlResult, pages: Map<string, PageSummary>, add: Add): void {
  linkChecks(crawl, add);
  canonicalChecks(crawl, pages, add);
  duplicateChecks(pages, add);
  hreflangChecks(pages, add);
  sitemapChecks(crawl, pages, add);
}
