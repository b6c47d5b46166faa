/**
 * Page-level checks: everything that can be judged from one fetched page and its HTML facts.
 * @module
 */
import type { FetchedPage } from "../fetch/fetch-page.ts";
import { toLocal, type Twin } from "../crawl/twin.ts";
import { hostOfUrl, isLoopback, normaliseUrl, originOfUrl } from "../fetch/url.ts";
import { type CheckId, THRESHOLDS } from "./catalogue.ts";
import { isValidHreflang, isValidLang } from "./directives.ts";
import type { HtmlFacts } from "./html-facts.ts";
import { securityHits } from "./security-checks.ts";
import { structuredDataHits } from "./structured-data.ts";
import { urlHits } from "./url-checks.ts";
import { clip, type Hit } from "./finding.ts";
import type { ClientRedirect, PageSummary, PageType } from "./page-summary.ts";

/** What page checks need beyond the raw HTML facts. */
export interface PageSignals {
  page: FetchedPage;
  html: HtmlFacts | undefined;
  directives: Set<string>;
  headerNoindex: boolean;
  metaNoindex: boolean;
  /** Canonical hrefs from HTML then the Link header, as written. */
  canonicalHrefs: string[];
  /** Base for resolving relative URLs (<base href> or the final URL). */
  base: string;
  clientRedirect?: ClientRedirect;
  pageType?: PageType;
}

function statusHits(s: PageSignals, hit: (id: CheckId, evidence: string) => void): void {
  const { page } = s;
  if (page.status === 0) hit("fetch-failed", page.error ?? "no response");
  else if (page.error && page.status >= 200 && page.status < 300)
    hit("fetch-failed", `status ${page.status}, then ${page.error} while reading the body`);
  if (page.status >= 400 && page.status < 500) hit("http-4xx", `status ${page.status}`);
  if (page.status >= 500) hit("http-5xx", `status ${page.status}`);
  if (page.status === 429) hit("rate-limited", "status 429");
  if (page.ttfbMs !== undefined && page.ttfbMs > THRESHOLDS.slowTtfb.value)
    hit("slow-response", `time to first byte ${Math.round(page.ttfbMs)} ms`);
  if (page.truncated) hit("page-truncated", `read stopped at ${page.bytes} bytes`);
  else if (page.bytes > THRESHOLDS.heavyHtml.value) hit("heavy-page", `${page.bytes} bytes of HTML`);
  if (page.status === 200 && page.finalUrl.startsWith("http:") && !isLoopback(new URL(page.finalUrl)))
    hit("not-https", "served over http:");
  if (page.finalUrl.length > THRESHOLDS.urlLength.value)
    hit("url-too-long", `${page.finalUrl.length} characters`);
}

function canonicalHits(s: PageSignals, hit: (id: CheckId, evidence: string) => void): void {
  const { canonicalHrefs: hrefs } = s;
  if (hrefs.length === 0) {
    hit("canonical-missing", "no <link rel=canonical> and no Link header canonical");
    return;
  }
  const resolved = hrefs.map((href) => normaliseUrl(href, s.base));
  const invalid = hrefs.filter((_, i) => resolved[i] === undefined);
  if (invalid.length > 0) hit("canonical-invalid", `canonical "${clip(invalid[0] ?? "", 120)}"`);
  const distinct = new Set(resolved.filter((u) => u !== undefined));
  if (distinct.size > 1) hit("canonical-conflicting", `canonicals disagree: ${[...distinct].join(" , ")}`);
  const relative = hrefs.find((href) => !/^[a-z][a-z0-9+.-]*:/i.test(href));
  if (relative !== undefined) hit("canonical-relative", `canonical "${clip(relative, 120)}"`);
  if (hrefs.length > 1 && distinct.size === 1) hit("canonical-multiple", `${hrefs.length} canonicals, all ${[...distinct][0]}`);
  const inBody = s.html?.canonicalsInBody ?? 0;
  if (inBody > 0) hit("canonical-outside-head", `${inBody} <link rel=canonical> in the <body>`);
}

function sameSiteHost(a: string, b: string): boolean {
  const strip = (u: string) => hostOfUrl(u).replace(/^www\./, "");
  return strip(a) === strip(b);
}

/**
 * Checks of where a page's canonical and hreflang URLs point, read through the production
 * twin when there is one (a staging copy's canonicals name production on purpose).
 */
export function relationHits(s: PageSummary, twin: Twin | undefined): Hit[] {
  if (s.status !== 200 || !s.isHtml || s.clientRedirect) return [];
  const hits: Hit[] = [];
  const hit = (id: CheckId, evidence: string) => hits.push({ id, url: s.url, evidence });
  // With itself as base, a URL already in canonical spelling is not parsed again.
  const self = normaliseUrl(s.finalUrl, s.finalUrl);
  const origin = originOfUrl(s.finalUrl);
  const local = (url: string) => toLocal(url, twin, origin);
  if (s.canonical) {
    const target = local(s.canonical);
    if (target !== self) hit("canonical-non-self", `canonical → ${s.canonical}`);
    if (!sameSiteHost(target, s.finalUrl)) hit("canonical-cross-site", `canonical → ${s.canonical}`);
  }
  if (s.hreflang.length > 0 && !s.hreflang.some((h) => local(h.url) === self))
    hit("hreflang-missing-self", `${s.hreflang.length} alternates, none is this URL`);
  return hits;
}

function contentHits(s: PageSignals, html: HtmlFacts, hit: (id: CheckId, evidence: string) => void): void {
  const title = html.titles[0] ?? "";
  if (html.titles.length === 0 || title === "")
    hit("title-missing", html.titles.length === 0 ? "no <title>" : "empty <title>");
  if (html.titles.length > 1) hit("title-multiple", `${html.titles.length} <title> elements`);
  if (title.length > THRESHOLDS.titleMax.value)
    hit("title-too-long", `${title.length} characters: "${clip(title, 120)}"`);
  if (title !== "" && title.length < THRESHOLDS.titleMin.value)
    hit("title-too-short", `${title.length} characters: "${title}"`);
  const description = html.metaDescriptions[0] ?? "";
  if (description === "")
    hit(
      "meta-description-missing",
      html.metaDescriptions.length === 0 ? "no meta description" : "empty meta description",
    );
  if (description.length > THRESHOLDS.descriptionMax.value)
    hit("meta-description-too-long", `${description.length} characters`);
  if (description !== "" && description.length < THRESHOLDS.descriptionMin.value)
    hit("meta-description-too-short", `${description.length} characters: "${description}"`);
  const descriptions = html.metaDescriptions.filter((text) => text !== "").length;
  if (descriptions > 1) hit("meta-description-multiple", `${descriptions} meta descriptions`);
  const h1s = html.headings.filter((level) => level === 1).length;
  if (h1s === 0) hit("h1-missing", "no <h1>");
  if (h1s > 1) hit("h1-multiple", `${h1s} <h1> elements`);
  const skip = html.headings.findIndex((level, i) => i > 0 && level > (html.headings[i - 1] ?? 0) + 1);
  if (skip > 0) hit("heading-order", `h${html.headings[skip - 1]} followed by h${html.headings[skip]}`);
  const h1 = html.h1[0] ?? "";
  if (h1 !== "" && h1.toLowerCase() === title.toLowerCase()) hit("h1-same-as-title", `"${clip(h1, 80)}"`);
  if (isSoft404(title, h1, html.wordCount)) hit("soft-404", `answers 200 with "${clip(title || h1, 80)}", ${html.wordCount} words`);
  thinHit(s, html, hit);
}

/** Links under which a page with scripts and a mount point reads as an empty shell. */
const SHELL_LINKS = 5;

/**
 * A single-page app's shell: scripts, a framework's mount point (or nothing at all) and next to
 * no text or links. Its real content is only in the rendered page, so the plain audit says so.
 */
function scriptShellHit(html: HtmlFacts, hit: (id: CheckId, evidence: string) => void): void {
  if (html.scripts === 0 || html.wordCount >= THRESHOLDS.scriptShellWords.value || html.linksFound >= SHELL_LINKS) return;
  const empty = html.wordCount === 0 && html.linksFound === 0;
  if (html.mountPoint === undefined && !empty) return;
  const where = html.mountPoint ? `mount point ${html.mountPoint}` : "an empty body";
  hit(
    "script-built-page",
    `${where}, ${html.scripts} script(s), ${html.wordCount} words, ${html.linksFound} links: rendering needed (--render / render: true)`,
  );
}

/** Words of "not found" in a title or H1 (Screaming Frog's soft 404 phrases, in short). */
const NOT_FOUND = /\b(?:404|not found|page (?:cannot|can't|could not) be found|no longer (?:exists|available)|does(?:n't| not) exist)\b/i;

/** A 200 page that says it is not there: a title or H1 of "not found" over little content. */
function isSoft404(title: string, h1: string, words: number): boolean {
  return words < THRESHOLDS.thinWords.value && (NOT_FOUND.test(title) || NOT_FOUND.test(h1));
}

/** Hubs and redirect stubs are not judged; reference pages (code, tables) have a lower bar. */
function thinHit(s: PageSignals, html: HtmlFacts, hit: (id: CheckId, evidence: string) => void): void {
  if (s.metaNoindex || s.headerNoindex || s.pageType === "hub" || s.pageType === "redirect") return;
  const reference = s.pageType === "reference";
  const bar = reference ? THRESHOLDS.thinWordsReference.value : THRESHOLDS.thinWords.value;
  if (html.wordCount < bar)
    hit(
      "thin-content",
      `${html.wordCount} words of main content${reference ? ` (a page with code or tables: under ${bar})` : ""}`,
    );
}

function markupHits(s: PageSignals, html: HtmlFacts, hit: (id: CheckId, evidence: string) => void): void {
  if (html.uncrawlableLinks.length > 0)
    hit(
      "uncrawlable-link",
      `${html.uncrawlableLinks.length} link(s), e.g. ${clip(html.uncrawlableLinks[0] ?? "", 120)}`,
    );
  if (html.genericLinkTexts.length > 0)
    hit("generic-link-text", `${html.genericLinkTexts.length} link(s), e.g. "${html.genericLinkTexts[0]}"`);
  const badLang = html.hreflang.find(
    (h) => !isValidHreflang(h.lang) || normaliseUrl(h.href, s.base) === undefined,
  );
  if (badLang) hit("hreflang-invalid", `hreflang="${badLang.lang}" href="${clip(badLang.href, 120)}"`);
  if (html.hreflang.length > 0 && !html.hreflang.some((h) => h.lang.toLowerCase() === "x-default"))
    hit("hreflang-missing-x-default", `languages: ${html.hreflang.map((h) => h.lang).join(", ")}`);
  structuredDataHits(html.microdata.length > 0 ? [...html.jsonLd, ...html.microdata] : html.jsonLd, hit);
  securityHits(html, s.page.finalUrl, s.base, hit);
  internalNofollowHit(s, html, hit);
  const missingOg = ["og:title", "og:description", "og:image"].filter((key) => !html.openGraph[key]);
  if (missingOg.length > 0) hit("open-graph-incomplete", `missing ${missingOg.join(", ")}`);
  if (!html.twitter["twitter:card"]) hit("twitter-card-missing", "no twitter:card");
  if (html.imagesWithoutAlt.length > 0)
    hit(
      "image-missing-alt",
      `${html.imagesWithoutAlt.length} of ${html.imageCount} images, e.g. ${clip(html.imagesWithoutAlt[0] ?? "", 120)}`,
    );
  if (html.lang === undefined || html.lang === "") hit("html-lang-missing", "no lang on <html>");
  else if (!isValidLang(html.lang)) hit("html-lang-invalid", `lang="${html.lang}"`);
  if (!html.viewport || !/width\s*=\s*device-width/i.test(html.viewport))
    hit("viewport-missing", html.viewport ? `viewport "${html.viewport}"` : "no viewport meta tag");
  if (new URL(s.page.finalUrl).protocol === "https:") {
    const insecure = html.resources.filter((src) => /^http:\/\//i.test(src.trim()));
    if (insecure.length > 0)
      hit("mixed-content", `${insecure.length} resource(s), e.g. ${clip(insecure[0] ?? "", 120)}`);
  }
}

/** Links to this site marked rel=nofollow: the site withholds its own signals from its pages. */
function internalNofollowHit(s: PageSignals, html: HtmlFacts, hit: (id: CheckId, evidence: string) => void): void {
  const own = hostOfUrl(s.page.finalUrl);
  const nofollow = html.links.filter((link) => {
    if (!link.nofollow) return false;
    const url = normaliseUrl(link.href, s.base);
    return url !== undefined && hostOfUrl(url) === own;
  });
  if (nofollow.length > 0) hit("internal-nofollow-link", `${nofollow.length} link(s), e.g. ${clip(nofollow[0]?.href ?? "", 120)}`);
}

function unknownCharset(contentType: string | null): string | undefined {
  const label = /charset\s*=\s*["']?([^"';\s]+)/i.exec(contentType ?? "")?.[1];
  if (label === undefined) return undefined;
  try {
    new TextDecoder(label);
    return undefined;
  } catch {
    return label;
  }
}

function encodingHits(s: PageSignals, html: HtmlFacts, hit: (id: CheckId, evidence: string) => void): void {
  const unknown = unknownCharset(s.page.headers.get("content-type"));
  if (unknown !== undefined) hit("encoding-invalid", `unknown charset "${clip(unknown, 40)}" in Content-Type, so browsers ignore it`);
  else if (html.replacementChars > 0)
    hit("encoding-invalid", `${html.replacementChars} byte sequence(s) not valid in the page's encoding (shown as �)`);
}

/** Hits about a redirecting URL itself (its content, if any, is audited under the final URL). */
export function redirectHits(page: FetchedPage): Hit[] {
  if (page.redirects.length === 0) return [];
  const chain = [
    ...page.redirects.map((r) => `${r.url} (${r.status})`),
    `${page.finalUrl} (${page.status || page.error})`,
  ].join(" → ");
  const hit = (id: CheckId, evidence: string): Hit => ({ id, url: page.url, evidence });
  if (page.error && /loop|more than/.test(page.error))
    return [hit("redirect-loop", `${page.error}: ${chain}`)];
  const hits: Hit[] = [];
  if (page.redirects.length > THRESHOLDS.redirectHops.value)
    hits.push(hit("redirect-chain", `${page.redirects.length} hops: ${chain}`));
  if (page.status >= 400 || page.status === 0) hits.push(hit("redirect-to-error", chain));
  return hits;
}

/** All page-level hits for one fetched page. */
export function pageHits(s: PageSignals): Hit[] {
  const hits: Hit[] = [];
  const url = s.page.url;
  const hit = (id: CheckId, evidence: string) => hits.push({ id, url, evidence });
  statusHits(s, hit);
  if (s.metaNoindex) hit("noindex-meta", "meta robots noindex");
  if (s.headerNoindex) hit("noindex-header", `X-Robots-Tag: ${s.page.headers.get("x-robots-tag")}`);
  if (s.directives.has("nofollow")) hit("nofollow-page", "robots nofollow");
  if (s.html) encodingHits(s, s.html, hit);
  if (s.clientRedirect) {
    // A redirect stub: the target is followed and audited; the stub's own content is not.
    hit("client-side-redirect", `${s.clientRedirect.kind} to ${s.clientRedirect.target}`);
    return hits;
  }
  if (s.page.status === 200 && s.html) {
    urlHits(s.page.url, hit);
    canonicalHits(s, hit);
    scriptShellHit(s.html, hit);
    contentHits(s, s.html, hit);
    markupHits(s, s.html, hit);
  }
  return hits;
}
