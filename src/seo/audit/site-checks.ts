/**
 * Site-level checks: judgements that need the whole crawl (link targets' statuses, duplicates,
 * canonical and hreflang targets, robots.txt, sitemaps against what was crawled). Canonical,
 * hreflang and sitemap URLs are read through the production twin when there is one.
 * @module
 */
import type { CrawlResult } from "../crawl/crawler.ts";
import type { UrlEntry } from "../crawl/frontier.ts";
import { toLocal, type Twin, twinFromPages } from "../crawl/twin.ts";
import { hostOfUrl, normaliseUrl } from "../fetch/url.ts";
import { THRESHOLDS } from "./catalogue.ts";
import type { Hit } from "./finding.ts";
import { statusText } from "./entry-status.ts";
import { isIndexable, type PageSummary } from "./page-summary.ts";
import { relationHits } from "./page-checks.ts";
import { nearDuplicateGroups } from "./simhash.ts";
import { sitemapChecks } from "./sitemap-checks.ts";

type Add = (hit: Hit) => void;
type Local = (url: string) => string;

const broken = (e: UrlEntry) =>
  e.state === "done" && (e.status === 0 || (e.status ?? 0) >= 400 || /loop|more than/.test(e.error ?? ""));
const linkedFrom = (e: UrlEntry) =>
  e.referrer
    ? `linked from ${e.referrer}${e.inlinks > 1 ? ` (+${e.inlinks - 1} more)` : ""}`
    : "listed in the sitemap";
const SESSION_PARAM = /[?&;](jsessionid|phpsessid|sid|sessionid|session_id|sess|aspsessionid\w*|cfid|cftoken)=/i;

function linkChecks(crawl: CrawlResult, pages: Map<string, PageSummary>, add: Add): void {
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
    // Server errors, failed fetches, loops and redirects to errors have findings of their own.
    if (e.inlinks > 0 && e.state === "done" && !e.hops && (e.status ?? 0) >= 400 && (e.status ?? 0) < 500)
      add({ id: "broken-internal-link", url: e.url, evidence: `${statusText(e)}; ${linkedFrom(e)}` });
    const stub = pages.get(e.url)?.clientRedirect;
    if (e.inlinks > 0 && e.state === "done" && !broken(e) && ((e.hops ?? 0) > 0 || stub))
      add({
        id: "link-to-redirect",
        url: e.url,
        evidence: `redirects${stub ? ` (${stub.kind})` : ""} to ${stub?.target ?? e.finalUrl}; ${linkedFrom(e)}`,
      });
    if (e.state === "blocked" && (e.inlinks > 0 || e.inSitemap))
      add({ id: "robots-blocked-linked", url: e.url, evidence: `disallowed by robots.txt; ${linkedFrom(e)}` });
    if (e.state === "done" && e.depth !== undefined && e.depth > THRESHOLDS.deepPage.value && e.status === 200)
      add({ id: "deep-page", url: e.url, evidence: `${e.depth} clicks from the start URL` });
    const session = SESSION_PARAM.exec(e.url);
    if (session && e.state === "done") add({ id: "url-session-id", url: e.url, evidence: `${session[1]}= in the URL` });
  }
  for (const origin of crawl.stoppedHosts)
    add({
      id: "host-stopped",
      url: origin,
      evidence: "5 consecutive 5xx/429 answers; its remaining URLs were skipped",
    });
}

function robotsChecks(crawl: CrawlResult, add: Add): void {
  for (const info of crawl.robots) {
    if (info.outcome === "disallow-all") add({ id: "robots-txt-unreachable", url: info.url, evidence: info.reason });
    if (info.outcome === "allow-all" && info.status >= 400)
      add({ id: "robots-txt-missing", url: info.url, evidence: `status ${info.status}: ${info.reason}` });
    const ignored = info.robots.ignored;
    if (info.outcome === "parsed" && (info.html || ignored.count > 0))
      add({
        id: "robots-txt-invalid",
        url: info.url,
        evidence: info.html
          ? "an HTML page, not a robots file: its rules and Sitemap lines are ignored"
          : `${ignored.count} line(s) ignored, e.g. "${ignored.examples[0] ?? ""}"`,
      });
  }
}

function notCrawledWhy(e: UrlEntry | undefined): string {
  if (e?.state === "blocked") return "disallowed by robots.txt";
  if (e?.state === "skipped") return e.reason ?? "skipped";
  return "not reached within the crawl's bounds";
}

function canonicalChecks(crawl: CrawlResult, pages: Map<string, PageSummary>, twin: Twin | undefined, local: Local, add: Add) {
  const site = new URL(crawl.start).host.replace(/^www\./, "");
  for (const s of pages.values()) {
    for (const hit of relationHits(s, twin)) add(hit);
    if (!s.canonical || s.clientRedirect) continue;
    const canonical = local(s.canonical);
    if (canonical === normaliseUrl(s.finalUrl, s.finalUrl) || hostOfUrl(canonical).replace(/^www\./, "") !== site)
      continue;
    const target = crawl.entries.get(canonical);
    if (target?.state !== "done")
      add({ id: "canonical-unresolved", url: s.url, evidence: `canonical ${s.canonical}: ${notCrawledWhy(target)}` });
    else if ((target.hops ?? 0) > 0)
      add({
        id: "canonical-to-redirect",
        url: s.url,
        evidence: `canonical ${s.canonical} redirects to ${target.finalUrl}`,
      });
    else if (target.status !== 200)
      add({ id: "canonical-to-non-200", url: s.url, evidence: `canonical ${s.canonical}: ${statusText(target)}` });
    else {
      const next = pages.get(canonical)?.canonical;
      if (next && local(next) !== canonical)
        add({ id: "canonical-chain", url: s.url, evidence: `${s.url} → ${s.canonical} → ${next}` });
    }
  }
}

function groupBy(pages: PageSummary[], key: "title" | "description"): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const s of pages) {
    const text = s[key]?.trim().toLowerCase();
    if (!text) continue;
    const group = groups.get(text);
    if (group) group.push(s.url);
    else groups.set(text, [s.url]);
  }
  return groups;
}

function duplicateChecks(pages: Map<string, PageSummary>, local: Local, add: Add): void {
  const indexable = [...pages.values()].filter((s) => isIndexable(s, local));
  for (const [id, key] of [
    ["title-duplicate", "title"],
    ["meta-description-duplicate", "description"],
  ] as const) {
    for (const [text, urls] of groupBy(indexable, key)) {
      if (urls.length < 2) continue;
      for (const url of urls) add({ id, url, evidence: `shared by ${urls.length} pages: "${text.slice(0, 80)}"` });
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

function hreflangChecks(pages: Map<string, PageSummary>, local: Local, add: Add): void {
  for (const s of pages.values()) {
    if (s.hreflang.length === 0) continue;
    const self = normaliseUrl(s.finalUrl);
    const missing = s.hreflang.filter((alt) => {
      const url = local(alt.url);
      const target = url === self ? undefined : pages.get(url);
      return target?.status === 200 && !target.hreflang.some((back) => local(back.url) === self);
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

/** The production twin the checks read through: the crawl's, else one most pages' canonicals show. */
export function twinOf(crawl: CrawlResult, pages: Map<string, PageSummary>, detect: boolean): Twin | undefined {
  if (crawl.twin || !detect) return crawl.twin;
  const pairs = [...pages.values()].flatMap((s) =>
    s.canonical && s.status === 200 ? [{ url: s.finalUrl, canonical: s.canonical }] : [],
  );
  return twinFromPages(pairs);
}

/** Runs every site-level check, reading URLs through `twin`. */
export function siteHits(
  crawl: CrawlResult,
  pages: Map<string, PageSummary>,
  twin: Twin | undefined,
  add: Add,
): void {
  const local: Local = (url) => toLocal(url, twin, new URL(crawl.start).origin);
  linkChecks(crawl, pages, add);
  robotsChecks(crawl, add);
  canonicalChecks(crawl, pages, twin, local, add);
  duplicateChecks(pages, local, add);
  hreflangChecks(pages, local, add);
  sitemapChecks(crawl, pages, local, add);
}
