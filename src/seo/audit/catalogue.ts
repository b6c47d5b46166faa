/**
 * The check catalogue: every check the audit runs, with its category, severity, fix and the
 * basis of its judgement, and the vocabulary it is written in (severities in order, categories).
 * Thresholds are tools' rules of thumb (Google publishes none for
 * lengths or word counts) and say which tool they come from.
 * @module
 */
import { ApiError } from "../../shared/errors.ts";

/** Every severity, most severe first: the one place their order is spelled out. */
export const SEVERITIES = ["critical", "high", "medium", "low", "info"] as const;
export type Severity = (typeof SEVERITIES)[number];

/** 0 for the most severe; for sorting by severity. */
export const SEVERITY_RANK = Object.fromEntries(SEVERITIES.map((severity, i) => [severity, i])) as Record<
  Severity,
  number
>;

export const CATEGORIES = [
  "crawlability",
  "indexability",
  "content",
  "links",
  "international",
  "sitemaps",
  "structured-data",
  "social",
  "accessibility",
  "security",
  "performance",
] as const;
export type Category = (typeof CATEGORIES)[number];

/** A threshold taken from common tool practice, with the tool it comes from. */
export interface Threshold {
  value: number;
  unit: string;
  source: string;
}

/** A check as the catalogue defines it (a finding carries the same fields). */
export interface CheckDef {
  id: CheckId;
  category: Category;
  severity: Severity;
  title: string;
  fix: string;
  threshold?: Threshold;
}

type Row = readonly [
  id: string,
  category: Category,
  severity: Severity,
  title: string,
  fix: string,
  threshold?: Threshold,
];

const rot = (value: number, unit: string, source: string): Threshold => ({ value, unit, source });

export const THRESHOLDS = {
  titleMax: rot(60, "characters", "Screaming Frog default; seo-analyzer titleLength.max"),
  titleMin: rot(30, "characters", "Screaming Frog default; seo-analyzer titleLength.min"),
  descriptionMax: rot(160, "characters", "wide band over Screaming Frog (155), houtini (160)"),
  descriptionMin: rot(50, "characters", "wide band under Screaming Frog (70)"),
  thinWords: rot(
    200,
    "words of main content (50 on pages with code or tables; hub pages, mostly links, are not judged)",
    "Screaming Frog low-content default; the reference-page bar is this tool's",
  ),
  thinWordsReference: rot(50, "words of main content on pages with code or tables", "this tool's rule"),
  slowTtfb: rot(800, "ms time to first byte", "web.dev TTFB 'good' bound"),
  heavyHtml: rot(1_048_576, "bytes of HTML", "common auditor heuristic"),
  deepPage: rot(3, "clicks from the start URL", "Screaming Frog crawl-depth convention"),
  redirectHops: rot(1, "redirect hops", "Screaming Frog redirect-chain filter"),
  urlLength: rot(115, "characters", "Screaming Frog URL tab"),
  scriptShellWords: rot(
    50,
    "words and under 5 links beside a script and an empty mount point (<div id=root>, <app-root>)",
    "this tool's rule, after Google's JavaScript SEO basics (content built by script needs rendering)",
  ),
} as const;

// biome-ignore format: a table reads best one check per line
const ROWS = [
  ["http-4xx", "crawlability", "high", "Page answers 4xx", "Restore the page or 301-redirect it to its replacement, and update links that point here"],
  ["http-5xx", "crawlability", "critical", "Page answers 5xx", "Fix the server error; crawlers drop pages that keep failing"],
  ["fetch-failed", "crawlability", "high", "Page could not be fetched (network error or timeout)", "Check that the server answers within the request timeout and the host resolves"],
  ["redirect-chain", "crawlability", "medium", "Redirect chain longer than one hop", "Point the first URL (and links to it) straight at the final URL", THRESHOLDS.redirectHops],
  ["redirect-loop", "crawlability", "high", "Redirect loop or too many hops", "Break the loop so the chain ends at a 200 page"],
  ["redirect-to-error", "crawlability", "high", "Redirect ends at an error", "Redirect to a live page or remove the redirect and its links"],
  ["robots-blocked-linked", "crawlability", "medium", "Linked page blocked by robots.txt", "Allow the path in robots.txt if it should rank, or stop linking to it internally"],
  ["robots-txt-missing", "crawlability", "low", "No robots.txt (4xx): every URL is allowed and no sitemap is declared", "Publish /robots.txt, e.g. \"User-agent: *\" and \"Allow: /\" plus a \"Sitemap: https://<your site>/sitemap.xml\" line"],
  ["robots-txt-invalid", "crawlability", "medium", "robots.txt has lines crawlers ignore (an HTML page, typos, rules outside a User-agent group)", "Serve /robots.txt as text/plain with User-agent, Allow, Disallow and Sitemap lines only; fix the lines quoted"],
  ["script-built-page", "crawlability", "high", "Page content is built by script: the plain crawl sees an empty shell", "Audit with rendering (--render on the CLI, render: true on seo_audit_site) to check what browsers and Google see; crawlers that run no script (Bing, link previews, AI crawlers) see this shell, so render on the server or prerender", THRESHOLDS.scriptShellWords],
  ["render-failed", "crawlability", "medium", "Page could not be rendered in the browser (navigation failed or timed out)", "Check that the page loads in a browser within the request timeout; the raw HTML was audited instead"],
  ["rendered-only-meta", "indexability", "medium", "Title, meta description, H1, canonical or robots only in the rendered HTML", "Serve them in the HTML: crawlers that run no script (and Google before it renders) do not see them"],
  ["rendered-changes-meta", "content", "low", "Script changes the title, meta description or H1", "Serve the final title, description and H1 in the HTML so every crawler reads the same"],
  ["rendered-noindex-mismatch", "indexability", "high", "Robots noindex differs between the raw and the rendered HTML", "Make the raw HTML carry the intended robots directive: Google may not render a page whose raw HTML says noindex"],
  ["rendered-canonical-mismatch", "indexability", "high", "Canonical in the rendered HTML differs from the raw one", "Serve one canonical in the HTML and leave it unchanged by script"],
  ["rendered-only-links", "links", "medium", "Links only in the rendered HTML", "Serve important links as <a href> in the HTML; crawlers that run no script cannot find their targets"],
  ["rendered-only-content", "content", "low", "Content only in the rendered HTML", "Serve the main content in the HTML (server rendering or prerendering) so every crawler reads it"],
  ["client-side-redirect", "crawlability", "medium", "Page redirects in the browser (meta refresh or script) instead of with HTTP", "Answer with a 301 (or 308) redirect from the server; crawlers may not follow client-side redirects"],
  ["robots-txt-unreachable", "crawlability", "critical", "robots.txt unreachable (5xx or network error): crawlers must assume full disallow", "Make /robots.txt answer 200 (or 404 if you have no rules)"],
  ["host-stopped", "crawlability", "high", "Host stopped after repeated 5xx/429 answers", "Fix the errors or raise the rate limit for crawlers, then re-audit"],
  ["rate-limited", "crawlability", "medium", "Server answered 429 Too Many Requests", "Allow a modest crawl rate; rate-limited pages may not be indexed"],
  ["noindex-meta", "indexability", "high", "Page has a noindex robots meta tag", "Remove noindex if the page should appear in search"],
  ["noindex-header", "indexability", "high", "Page has a noindex X-Robots-Tag header", "Remove the X-Robots-Tag noindex header if the page should appear in search"],
  ["nofollow-page", "indexability", "low", "Page-level nofollow: none of its links pass signals", "Remove nofollow from the robots meta tag unless intended"],
  ["canonical-missing", "indexability", "medium", "No canonical URL", 'Add <link rel="canonical" href="<absolute URL of this page>">'],
  ["canonical-conflicting", "indexability", "high", "Several canonical URLs that disagree", "Keep exactly one canonical (HTML or Link header), pointing at one URL"],
  ["canonical-invalid", "indexability", "high", "Canonical URL is not a valid absolute http(s) URL", "Use an absolute URL such as https://example.com/page"],
  ["canonical-relative", "indexability", "low", "Canonical URL is relative", "Use an absolute canonical URL; relative ones are easy to get wrong"],
  ["canonical-non-self", "indexability", "info", "Page canonicalises to another URL", "Check that the other URL is the version you want indexed"],
  ["canonical-to-non-200", "indexability", "high", "Canonical points at a URL that is not 200", "Point the canonical at a live, indexable page"],
  ["canonical-to-redirect", "indexability", "medium", "Canonical points at a redirect", "Point the canonical at the redirect's final URL"],
  ["canonical-chain", "indexability", "medium", "Canonical target canonicalises elsewhere (chain)", "Point every page's canonical directly at the final canonical URL"],
  ["canonical-cross-site", "indexability", "medium", "Canonical points to another site", "Confirm the cross-site canonical is intended (syndication); otherwise point it at this site. Auditing a staging copy? Pass its production URL (production_url / --production-url)"],
  ["canonical-unresolved", "indexability", "medium", "Canonical resolves to no crawled URL", "Point the canonical at a page that exists on this site (or raise the bounds if the crawl stopped before reaching it)"],
  ["canonical-to-noindex", "indexability", "high", "Canonical points at a noindex page", "Point the canonical at an indexable page, or drop the target's noindex: the two signals contradict each other"],
  ["canonical-to-home", "indexability", "medium", "Deep page canonicalises to the home page", "Give the page its own canonical (itself) unless it really duplicates the home page; otherwise it drops out of the index"],
  ["canonical-multiple", "indexability", "low", "More than one canonical (all naming the same URL)", "Keep one canonical; several invite a CMS or plugin to make them disagree"],
  ["canonical-outside-head", "indexability", "high", "Canonical in the <body>, where search engines ignore it", "Move <link rel=canonical> into the <head> (an element before it, such as an <img> or invalid markup, may close the head early)"],
  ["pagination-canonical-to-first", "indexability", "medium", "Paginated page canonicalises to the first page", "Give each page of the series its own canonical: Google indexes the later pages' items only through them"],
  ["title-missing", "content", "high", "Title missing or empty", "Add a unique, descriptive <title> to the page's <head>"],
  ["title-multiple", "content", "medium", "More than one <title>", "Keep a single <title> element"],
  ["title-too-long", "content", "low", "Title longer than the rule of thumb", "Shorten the title so it is not truncated in results", THRESHOLDS.titleMax],
  ["title-too-short", "content", "low", "Title shorter than the rule of thumb", "Write a more descriptive title", THRESHOLDS.titleMin],
  ["title-duplicate", "content", "medium", "Title shared by several pages", "Give each indexable page its own title"],
  ["h1-duplicate", "content", "low", "H1 shared by several pages", "Give each indexable page its own <h1>"],
  ["h1-same-as-title", "content", "info", "H1 identical to the title", "Optional: the H1 can say the topic in words the title has no room for"],
  ["meta-description-missing", "content", "medium", "Meta description missing or empty", 'Add <meta name="description" content="…"> summarising the page'],
  ["meta-description-too-long", "content", "low", "Meta description longer than the rule of thumb", "Shorten the description", THRESHOLDS.descriptionMax],
  ["meta-description-too-short", "content", "low", "Meta description shorter than the rule of thumb", "Write a fuller description", THRESHOLDS.descriptionMin],
  ["meta-description-duplicate", "content", "medium", "Meta description shared by several pages", "Give each indexable page its own description"],
  ["meta-description-multiple", "content", "medium", "More than one meta description", "Keep a single <meta name=description>"],
  ["h1-missing", "content", "medium", "No <h1> heading", "Add one <h1> that states the page's topic"],
  ["h1-multiple", "content", "low", "More than one <h1>", "Keep one <h1> and demote the others to <h2>"],
  ["heading-order", "accessibility", "low", "Heading levels skip (e.g. h2 to h4)", "Use heading levels in order without gaps"],
  ["thin-content", "content", "low", "Little main content", "Add substantive content or noindex/merge the page", THRESHOLDS.thinWords],
  ["near-duplicate-content", "content", "medium", "Near-duplicate content (SimHash within 3 of 64 bits)", "Merge the pages, differentiate them, or canonicalise to one"],
  ["duplicate-content-exact", "content", "medium", "Exact duplicate pages (the same HTML at several URLs)", "Keep one URL: 301-redirect the copies to it, or canonicalise them to it"],
  ["duplicate-url-variant", "content", "medium", "One page served at URL variants (http/https, www, index file, case, trailing slash, parameters)", "Redirect every variant (301) to one form of the URL and link only that form; or canonicalise the variants to it"],
  ["soft-404", "content", "medium", "Page answers 200 but says it is not found (soft 404)", "Answer 404 (or 410) for missing pages, or give the page real content"],
  ["encoding-invalid", "content", "medium", "Text not valid in the page's declared encoding", "Serve the page in the encoding it declares (UTF-8: Content-Type: text/html; charset=utf-8)"],
  ["url-too-long", "content", "low", "URL longer than the rule of thumb", "Use shorter, readable URLs", THRESHOLDS.urlLength],
  ["url-uppercase", "content", "low", "URL with uppercase characters", "Use lower-case URLs: servers often treat case as a different URL, so mixed case makes duplicates"],
  ["url-underscores", "content", "info", "URL with underscores", "Prefer hyphens between words in new URLs (Google's URL structure guide); do not change working URLs for this alone"],
  ["url-parameters", "content", "info", "URL with query parameters", "Link to parameter-free URLs where a page has one; keep filters and sorts from making crawlable copies"],
  ["url-non-ascii", "content", "low", "URL with non-ASCII characters", "Use ASCII (percent-encoded UTF-8 is valid but is often linked inconsistently)"],
  ["url-multiple-slashes", "content", "low", "URL with repeated slashes (//) in its path", "Fix the links that build the double slash; redirect the variant to the single-slash URL"],
  ["broken-internal-link", "links", "high", "Internal link to a page that answers 4xx", "Fix or remove the link, or redirect the target"],
  ["broken-resource", "links", "medium", "Broken internal resource (image, script, stylesheet)", "Fix the resource URL or restore the file"],
  ["resource-blocked-by-robots", "links", "medium", "Resource (script, stylesheet, image) blocked by robots.txt", "Allow the resource in robots.txt: Google renders pages with their scripts and styles and cannot use what it may not fetch"],
  ["external-link-broken", "links", "medium", "External link to a URL that answers 4xx/5xx or does not respond", "Fix or remove the link, or point it at the page's new address (checked HEAD then GET, politely, when external links are checked)"],
  ["external-link-redirect", "links", "info", "External link points at a redirect", "Link straight to the final URL"],
  ["link-to-redirect", "links", "low", "Internal link points at a redirect", "Link straight to the final URL"],
  ["uncrawlable-link", "links", "medium", "Link without a crawlable href (missing or javascript:)", 'Use <a href="/path"> so crawlers can follow the link'],
  ["url-session-id", "links", "medium", "URLs carry a session id (every visit makes new URLs)", "Keep sessions in cookies, not in URLs; crawlers see endless copies of each page"],
  ["generic-link-text", "links", "low", 'Link text says nothing about the target ("click here")', "Use descriptive link text"],
  ["deep-page", "links", "low", "Page is many clicks from the start URL", "Link important pages from higher-level pages", THRESHOLDS.deepPage],
  ["internal-nofollow-link", "links", "low", "Internal links marked rel=nofollow", "Remove nofollow from links to your own pages; use robots rules or noindex for what should stay out"],
  ["pagination-sequence-error", "links", "low", "rel=next/prev sequence broken (a target that is not 200 or does not point back)", "Make each page's next name a live page whose prev names it back"],
  ["hreflang-invalid", "international", "high", "Invalid hreflang code or URL", "Use ISO 639-1 language (+ optional ISO 3166-1 region) or x-default, with absolute URLs"],
  ["hreflang-missing-return", "international", "medium", "hreflang target does not link back", "Each alternate must list this page too, or Google ignores the pair"],
  ["hreflang-missing-self", "international", "low", "hreflang set does not include the page itself", "Add an hreflang entry for the page's own URL"],
  ["hreflang-missing-x-default", "international", "low", "hreflang set without x-default", 'Add hreflang="x-default" for the fallback page'],
  ["hreflang-to-non-200", "international", "medium", "hreflang alternate that is not 200 (error or redirect)", "List only live, final URLs as alternates"],
  ["hreflang-to-non-canonical", "international", "medium", "hreflang alternate that canonicalises elsewhere", "List the canonical URL of each language version"],
  ["hreflang-to-noindex", "international", "medium", "hreflang alternate that is noindex", "List only indexable pages as alternates, or drop the noindex"],
  ["sitemap-missing", "sitemaps", "low", "No sitemap found (robots.txt Sitemap: lines, /sitemap.xml, /sitemap_index.xml, the start directory, <link rel=sitemap>)", "Publish a sitemap and list it in robots.txt"],
  ["sitemap-url-mismatch", "sitemaps", "medium", "Sitemap lists URLs on another host or outside the path the site is served under", "List the URLs the site really serves: check the site URL and base path your sitemap generator is configured with"],
  ["sitemap-invalid", "sitemaps", "high", "Sitemap could not be used (status, XML, format or size)", "Serve a valid <urlset> or <sitemapindex> (≤50,000 URLs, ≤50 MB) with status 200"],
  ["sitemap-lastmod-invalid", "sitemaps", "low", "Sitemap <lastmod> values that are not W3C Datetime or lie in the future", "Write lastmod as W3C Datetime (e.g. 2026-01-31 or 2026-01-31T10:00:00Z) with the page's real last change"],
  ["sitemap-hreflang-invalid", "sitemaps", "medium", "Sitemap hreflang annotations that are invalid (codes, or alternates that do not list the entry back)", "In each <url>, list every language version (itself included) as <xhtml:link rel=\"alternate\" hreflang=\"…\" href=\"…\">, with ISO 639-1 language and ISO 3166-1 region codes"],
  ["sitemap-non-200", "sitemaps", "medium", "Sitemap lists URLs that are not 200", "List only live, final URLs"],
  ["sitemap-noindex", "sitemaps", "medium", "Sitemap lists noindex pages", "Remove noindex pages from the sitemap, or drop the noindex"],
  ["sitemap-non-canonical", "sitemaps", "low", "Sitemap lists pages that canonicalise elsewhere", "List the canonical URLs only"],
  ["orphan-page", "sitemaps", "medium", "Page found only in the sitemap (no internal links to it)", "Link the page from related pages"],
  ["sitemap-missing-page", "sitemaps", "low", "Indexable page missing from the sitemap", "Add the page to the sitemap"],
  ["structured-data-invalid", "structured-data", "high", "JSON-LD that does not parse", "Fix the JSON syntax of the script[type=application/ld+json] block"],
  ["structured-data-missing-type", "structured-data", "medium", "JSON-LD item without @type", "Give every JSON-LD item a schema.org @type"],
  ["structured-data-missing-required", "structured-data", "medium", "Structured data lacks a property Google requires for its rich result", "Add the properties named (Google's structured-data guide for the type): without them the item is not eligible for its rich result"],
  ["structured-data-missing-recommended", "structured-data", "info", "Structured data lacks properties Google recommends", "Add the recommended properties named when the page has them: they enrich the rich result"],
  ["open-graph-incomplete", "social", "low", "Open Graph tags missing (og:title, og:description, og:image)", "Add the missing og: meta tags with an absolute og:image URL"],
  ["twitter-card-missing", "social", "info", "No twitter:card meta tag", 'Add <meta name="twitter:card" content="summary_large_image">'],
  ["image-missing-alt", "accessibility", "medium", "Images without an alt attribute", 'Add alt text (alt="" for decorative images)'],
  ["html-lang-missing", "accessibility", "medium", "<html> has no lang attribute", 'Add lang, e.g. <html lang="en">'],
  ["html-lang-invalid", "accessibility", "low", "<html lang> is not a valid language tag", "Use a BCP 47 tag such as en or en-GB"],
  ["viewport-missing", "accessibility", "medium", "No mobile viewport meta tag", 'Add <meta name="viewport" content="width=device-width, initial-scale=1">'],
  ["not-https", "security", "high", "Page served over plain HTTP", "Serve the site over HTTPS and redirect HTTP to it"],
  ["mixed-content", "security", "high", "HTTPS page loads HTTP resources", "Load every resource over HTTPS"],
  ["form-insecure", "security", "medium", "HTTPS page with a form that posts over HTTP", "Post forms to https:// URLs"],
  ["protocol-relative-resource", "security", "low", "Resources loaded by protocol-relative URLs (//host/...)", "Write resource URLs with https://"],
  ["target-blank-unsafe", "security", "info", "Links to other sites open a new tab without rel=noopener", 'Add rel="noopener" (current browsers imply it; older ones hand the new page window.opener)'],
  ["security-headers-missing", "security", "low", "Security headers missing (HSTS, CSP, X-Content-Type-Options, X-Frame-Options, Referrer-Policy)", "Send them from the server or CDN on every page (reported once per site, for the start page)"],
  ["slow-response", "performance", "medium", "Slow server response", "Cache or speed up the page's server response", THRESHOLDS.slowTtfb],
  ["heavy-page", "performance", "medium", "Very large HTML document", "Reduce the HTML size (inline data, repeated markup)", THRESHOLDS.heavyHtml],
  ["page-truncated", "performance", "high", "HTML larger than the read cap; the rest was not audited", "Reduce the page size well below the cap"],
] as const satisfies readonly Row[];

/** Every check's id: a hit, finding or fix naming an id outside the catalogue is a compile error. */
export type CheckId = (typeof ROWS)[number][0];

export const CHECKS: ReadonlyMap<CheckId, CheckDef> = new Map(
  ROWS.map((row): [CheckId, CheckDef] => {
    const id = row[0];
    const [, category, severity, title, fix, threshold] = row as Row;
    return [id, { id, category, severity, title, fix, ...(threshold ? { threshold } : {}) }];
  }),
);

/**
 * The catalogue entry of `id`. The id type makes a miss impossible from typed code; one that
 * still arrives (an id cast from outside) is a bug, answered as INTERNAL wherever it surfaces,
 * by the site audit and the page report alike.
 */
export function checkOf(id: CheckId): CheckDef {
  const check = CHECKS.get(id);
  if (!check) throw new ApiError("INTERNAL", `The check catalogue has no check ${JSON.stringify(id)}`);
  return check;
}
