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
import type { PageSummary } from "./page-summary.ts";
import { relationHits } from "./page-checks.ts";
import { duplicateChecks } from "./duplicate-checks.ts";
import { paginationChecks } from "./pagination-checks.ts";
import { sitemapChecks } from "./sitemap-checks.ts";
import type { PageFacts } from "./page-facts.ts";

type Add = (hit: Hit) => void;
type Local = (url: string) => string;

const broken = (e: UrlEntry) =>
  e.state === "done" && (e.status === 0 || (e.status ?? 0) >= 400 || /loop|more than/.test(e.error ?? ""));
const linkedFrom = (e: UrlEntry) =>
  e.referrer
    ? `linked from ${e.referrer}${e.inlinks > 1 ? ` (+${e.inlinks - 1} more)` : ""}`
    : "listed in the sitemap";
const SESSION_PARAM = /[?&;](jsessionid|phpsessid|sid|sessionid|session_id|sess|aspsessionid\w*|cfid|cftoken)=/i;

function linkChecks(crawl: CrawlResult, pages: PageFacts, add: Add): void {
  for (const e of crawl.entries.values()) {
    if (e.kind === "resource") {
      if (broken(e))
        add({
          id: "broken-resource",
          url: e.url,
          evidence: `${statusText(e)}; used on ${e.referrer ?? "a crawled page"}`,
        });
      if (e.state === "blocked")
        add({ id: "resource-blocked-by-robots", url: e.url, evidence: `disallowed by robots.txt; used on ${e.referrer ?? "a crawled page"}` });
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

function canonicalChecks(crawl: CrawlResult, pages: PageFacts, twin: Twin | undefined, local: Local, add: Add) {
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
    else canonicalTargetChecks(s, canonical, pages.get(canonical), local, add);
  }
}

/** A live canonical target: itself canonicalised elsewhere, noindex, or the home page named by a deep page. */
function canonicalTargetChecks(s: PageSummary, canonical: string, target: PageSummary | undefined, local: Local, add: Add) {
  const next = target?.canonical;
  if (next && local(next) !== canonical)
    add({ id: "canonical-chain", url: s.url, evidence: `${s.url} → ${s.canonical} → ${next}` });
  if (target?.noindex) add({ id: "canonical-to-noindex", url: s.url, evidence: `canonical ${s.canonical} is noindex` });
  if (new URL(canonical).pathname === "/" && new URL(s.finalUrl).pathname !== "/" && !s.prev)
    add({ id: "canonical-to-home", url: s.url, evidence: `canonical ${s.canonical} (the home page)` });
}

function hreflangChecks(crawl: CrawlResult, pages: PageFacts, local: Local, add: Add): void {
  for (const s of pages.values()) {
    if (s.hreflang.length === 0) continue;
    const self = normaliseUrl(s.finalUrl);
    const missing = s.hreflang.filter((alt) => {
      const url = local(alt.url);
      const target = url === self ? undefined : pages.get(url);
      return target?.status === 200 && !target.hreflang.some((back) => local(back.url) === self);
    });
    hreflangTargetChecks(s, self, crawl, pages, local, add);
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

/** Alternates that are not what a language version must be: live, canonical, indexable. */
function hreflangTargetChecks(s: PageSummary, self: string | undefined, crawl: CrawlResult, pages: PageFacts, local: Local, add: Add) {
  const fired = new Set<string>();
  for (const alt of s.hreflang) {
    const url = local(alt.url);
    const entry = crawl.entries.get(url);
    if (url === self || entry?.state !== "done") continue;
    // One finding per check and page: the first alternate that shows it.
    const hit = (id: "hreflang-to-non-200" | "hreflang-to-non-canonical" | "hreflang-to-noindex", why: string) => {
      if (!fired.has(id)) add({ id, url: s.url, evidence: `${alt.url} (${alt.lang}) ${why}` });
      fired.add(id);
    };
    const target = pages.get(url);
    if ((entry.hops ?? 0) > 0) hit("hreflang-to-non-200", `redirects to ${entry.finalUrl}`);
    else if (entry.status !== 200) hit("hreflang-to-non-200", statusText(entry));
    else if (target?.noindex) hit("hreflang-to-noindex", "is noindex");
    else if (target?.canonical && local(target.canonical) !== url) hit("hreflang-to-non-canonical", `canonicalises to ${target.canonical}`);
  }
}

/** The production twin the checks read through: the crawl's, else one most pages' canonicals show. */
export function twinOf(crawl: CrawlResult, pages: PageFacts, detect: boolean): Twin | undefined {
  if (crawl.twin || !detect) return crawl.twin;
  return twinFromPages(canonicalPairs(pages));
}

/** The pages' canonicals a page at a time: a crawl's summaries may be on disk, never copied whole. */
function* canonicalPairs(pages: PageFacts): Generator<{ url: string; canonical: string }> {
  for (const s of pages.values()) if (s.canonical && s.status === 200) yield { url: s.finalUrl, canonical: s.canonical };
}

/** Runs every site-level check, reading URLs through `twin`. */
export function siteHits(
  crawl: CrawlResult,
  pages: PageFacts,
  twin: Twin | undefined,
  add: Add,
): void {
  const local: Local = (url) => toLocal(url, twin, new URL(crawl.start).origin);
  linkChecks(crawl, pages, add);
  robotsChecks(crawl, add);
  canonicalChecks(crawl, pages, twin, local, add);
  duplicateChecks(pages, local, add);
  hreflangChecks(crawl, pages, local, add);
  paginationChecks(pages, local, add);
  sitemapChecks(crawl, pages, local, add);
}
