/**
 * Auditing one fetched page: HTML facts, robots and canonical signals, and the page-level
 * checks. The crawler keeps only the compact `PageSummary`; `auditPage` labels every fact with
 * its provenance for tools that report a single page.
 * @module
 */
import type { FetchedPage } from "../fetch/fetch-page.ts";
import type { ResponseHeaders } from "../fetch/http-request.ts";
import { normaliseUrl } from "../fetch/url.ts";
import { measured } from "../provenance.ts";
import { canonicalsFromLinkHeader, robotsDirectives } from "./directives.ts";
import { extractHtml, type FactsSink, type FactsSinks, HtmlExtractor, isFactsSink } from "./extract.ts";
import type { HtmlFacts } from "./html-facts.ts";
import { type Finding, findingOf, type Hit } from "./finding.ts";
import { type PageSignals, pageHits, relationHits } from "./page-checks.ts";
import type { ClientRedirect, PageSummary, PageType } from "./page-summary.ts";

interface PageAnalysis {
  summary: PageSummary;
  hits: Hit[];
  /** Normalised absolute URLs of crawlable links, nofollow ones excluded. */
  links: string[];
  /** Normalised absolute URLs of subresources. */
  resources: string[];
  /** `<link rel="sitemap">` URLs, resolved. */
  sitemapLinks: string[];
  html: HtmlFacts | undefined;
  signals: PageSignals;
}

const isHtmlType = (type: string | null) => type === null || /html/i.test(type);

/** For a response whose markup will be audited, a sink its text streams into, so no body is kept. */
export function htmlSinks(sinks?: FactsSinks) {
  return (status: number, headers: ResponseHeaders): FactsSink | undefined =>
    status === 200 && isHtmlType(headers.get("content-type")) ? (sinks?.() ?? new HtmlExtractor()) : undefined;
}

function resolveAll(hrefs: string[], base: string): string[] {
  const out: string[] = [];
  for (const href of hrefs) {
    const url = normaliseUrl(href, base);
    if (url !== undefined) out.push(url);
  }
  return out;
}

/** Script redirects count only on near-empty pages: elsewhere the script may redirect on a click. */
const SCRIPT_REDIRECT_MAX_WORDS = 50;

function clientRedirectOf(html: HtmlFacts, base: string, self: string | undefined): ClientRedirect | undefined {
  const refresh = html.metaRefresh?.url !== undefined ? normaliseUrl(html.metaRefresh.url, base) : undefined;
  if (refresh && refresh !== self) return { kind: "meta refresh", target: refresh };
  if (html.scriptRedirect === undefined || html.wordCount >= SCRIPT_REDIRECT_MAX_WORDS) return undefined;
  const target = normaliseUrl(html.scriptRedirect, base);
  return target && target !== self ? { kind: "script", target } : undefined;
}

/**
 * Hubs (indexes, categories, tag pages) link more than they say: at least 10 links in the main
 * content with half the words link text, or under 20 words per link.
 */
function pageTypeOf(html: HtmlFacts, redirect: ClientRedirect | undefined): PageType {
  if (redirect) return "redirect";
  if (html.linkCount >= 10 && (html.linkWords * 2 >= html.wordCount || html.wordCount < html.linkCount * 20))
    return "hub";
  return html.codeBlocks > 0 ? "reference" : "article";
}

function followed(html: HtmlFacts | undefined, signals: PageSignals, base: string): string[] {
  if (!html || signals.directives.has("nofollow")) return [];
  if (signals.clientRedirect) return [signals.clientRedirect.target];
  return linksOf(html, base);
}

/** The page's links a crawl follows (every one not marked nofollow), resolved against `base`. */
export function linksOf(facts: HtmlFacts, base: string): string[] {
  const out: string[] = [];
  for (const link of facts.links) {
    if (link.nofollow) continue;
    const url = normaliseUrl(link.href, base);
    if (url !== undefined) out.push(url);
  }
  return out;
}

const NO_ALTERNATES: PageSummary["hreflang"] = Object.freeze([]) as unknown as PageSummary["hreflang"];

function hreflangOf(html: HtmlFacts | undefined, base: string): PageSummary["hreflang"] {
  if (!html || html.hreflang.length === 0) return NO_ALTERNATES;
  return html.hreflang.flatMap((h) => {
    const url = normaliseUrl(h.href, base);
    return url ? [{ lang: h.lang.toLowerCase(), url }] : [];
  });
}

/** What the crawl keeps of the page (see `PageSummary`). */
function summaryOf(signals: PageSignals, isHtml: boolean): PageSummary {
  const { page, html, base } = signals;
  const canonicals = new Set(resolveAll(signals.canonicalHrefs, base));
  // Every field from the start: one object shape for the thousands of summaries a crawl keeps.
  return {
    url: page.url,
    finalUrl: page.finalUrl,
    status: page.status,
    redirectHops: page.redirects.length,
    error: page.error,
    isHtml,
    noindex: signals.headerNoindex || signals.metaNoindex,
    canonical: canonicals.size === 1 ? (canonicals.values().next().value as string) : undefined,
    title: html?.titles[0] || undefined,
    description: html?.metaDescriptions[0] || undefined,
    simhash: html?.simhash,
    documentHash: html?.documentHash,
    h1: html?.h1[0] || undefined,
    next: html?.relNext !== undefined ? normaliseUrl(html.relNext, base) : undefined,
    prev: html?.relPrev !== undefined ? normaliseUrl(html.relPrev, base) : undefined,
    hreflang: hreflangOf(html, base),
    words: html?.wordCount ?? 0,
    pageType: signals.pageType,
    clientRedirect: signals.clientRedirect,
    linksFound: html && html.linksFound > html.links.length ? html.linksFound : undefined,
  };
}

/** Analyses a fetched page: signals, page-level hits, and the URLs it leads to. */
export function analysePage(page: FetchedPage): PageAnalysis {
  // An empty 200 HTML page is audited (a blank page is a problem); a body that failed mid-read is not.
  const isHtml =
    page.status === 200 && page.error === undefined && isHtmlType(page.headers.get("content-type"));
  const html = !isHtml
    ? undefined
    : isFactsSink(page.sink)
      ? page.sink.facts
      : extractHtml(page.body);
  const base = html?.base === undefined ? page.finalUrl : (normaliseUrl(html.base, page.finalUrl) ?? page.finalUrl);
  const header = page.headers.get("x-robots-tag");
  const headerDirectives = robotsDirectives(header ? [header] : []);
  const metaDirectives = robotsDirectives(html?.metaRobots ?? []);
  const signals: PageSignals = {
    page,
    html,
    directives: new Set([...headerDirectives, ...metaDirectives]),
    headerNoindex: headerDirectives.has("noindex"),
    metaNoindex: metaDirectives.has("noindex"),
    canonicalHrefs: [...(html?.canonicals ?? []), ...canonicalsFromLinkHeader(page.headers.get("link"))],
    base,
  };
  if (html) {
    const redirect =
      html.metaRefresh || html.scriptRedirect ? clientRedirectOf(html, base, normaliseUrl(page.finalUrl)) : undefined;
    if (redirect) signals.clientRedirect = redirect;
    signals.pageType = pageTypeOf(html, redirect);
  }
  const summary = summaryOf(signals, isHtml);
  return {
    summary,
    hits: pageHits(signals),
    links: followed(html, signals, base),
    resources: html && !signals.clientRedirect ? resolveAll(html.resources, base) : [],
    sitemapLinks: html ? resolveAll(html.sitemapLinks, base) : [],
    html,
    signals,
  };
}

/** The facts of one page, each labelled `measured` (`isHtml`: whether its markup could be audited). */
export type PageFacts = ReturnType<typeof factsOf>;

function factsOf(a: PageAnalysis, at: string) {
  const { page } = a.signals;
  const html = a.html;
  const m = <T>(value: T) => measured(value, at);
  return {
    url: m(page.url),
    finalUrl: m(page.finalUrl),
    status: m(page.status),
    redirects: m(page.redirects),
    responseMs: m(Math.round(page.ttfbMs ?? page.timingMs)),
    bytes: m(page.bytes),
    contentType: m(page.headers.get("content-type")),
    isHtml: m(a.summary.isHtml),
    title: m(html?.titles[0] ?? null),
    metaDescription: m(html?.metaDescriptions[0] ?? null),
    canonical: m(a.signals.canonicalHrefs),
    robots: m({
      meta: html?.metaRobots ?? [],
      xRobotsTag: page.headers.get("x-robots-tag"),
      noindex: a.summary.noindex,
      nofollow: a.signals.directives.has("nofollow"),
    }),
    hreflang: m(html?.hreflang ?? []),
    headings: m({ h1: html?.h1 ?? [], levels: html?.headings ?? [] }),
    openGraph: m(html?.openGraph ?? {}),
    twitter: m(html?.twitter ?? {}),
    structuredData: m(html ? [...html.jsonLd, ...html.microdata] : []),
    wordCount: m(html?.wordCount ?? 0),
    lang: m(html?.lang ?? null),
    viewport: m(html?.viewport ?? null),
    imagesWithoutAlt: m({
      count: html?.imagesWithoutAlt.length ?? 0,
      of: html?.imageCount ?? 0,
      examples: html?.imagesWithoutAlt.slice(0, 5) ?? [],
    }),
    links: m({
      internalAndExternal: a.links.length,
      uncrawlable: html?.uncrawlableLinks.length ?? 0,
      examples: a.links.slice(0, 5),
    }),
    mixedContent: m(
      page.finalUrl.startsWith("https:") ? (html?.resources ?? []).filter((r) => /^http:\/\//i.test(r)) : [],
    ),
  };
}

/** Audits a single fetched page: labelled facts and the page-level findings. */
export function auditPage(
  page: FetchedPage,
  at = new Date().toISOString(),
): { facts: PageFacts; findings: Finding[] } {
  const analysis = analysePage(page);
  const hits = [...analysis.hits, ...relationHits(analysis.summary, undefined)];
  return {
    facts: factsOf(analysis, at),
    findings: hits.map((hit) => findingOf(hit.id, [{ url: hit.url, evidence: hit.evidence }], 1, 1)),
  };
}
