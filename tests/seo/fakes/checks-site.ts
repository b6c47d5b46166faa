/**
 * A shop at https://shop.example, served by an injected `fetch` (no network), that plants the
 * checks professionals expect (Screaming Frog issues, Sitebulb hints, Google's rich-result
 * rules) next to clean twins that must stay silent: structured data by type, canonicals,
 * hreflang alternates, duplicates and URL variants, pagination, security and URL structure.
 * Every page is clean unless its entry says what it plants: unique title, description, H1 and
 * prose, a self canonical, lang, viewport, social tags and alt text. Every response carries the
 * security headers; `bareSiteFetch` is the twin site that sends none. The www. host serves the
 * scarf page (linked there, a URL variant) and redirects everything else to the shop.
 * @module
 */
import { mulberry32 } from "./generated-site.ts";

export const SHOP = "https://shop.example";
/** The shop's www. host (the crawl treats it as the same site): it serves one page, the rest redirects. */
export const WWW = "https://www.shop.example";

const WORDS =
  "acorn basket bramble candle cedar cobble copper cotton dahlia ember fennel fern flannel garnet ginger harbor hazel heather indigo ivory juniper kettle lantern larch linen maple meadow moss nutmeg oak olive orchard pebble pepper pine plum quill raven reed russet saffron sage slate sorrel spruce tansy thistle thyme timber tweed umber velvet walnut willow wool yarrow"
    .split(" ");

function seedOf(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

function prose(count: number, seed: number): string {
  const random = mulberry32(seed);
  return Array.from({ length: count }, () => WORDS[Math.floor(random() * WORDS.length)]).join(" ");
}

interface Spec {
  /** Words that make the title, description, H1 and prose unique (default: the path). */
  key?: string;
  title?: string;
  h1?: string;
  /** Canonical URL; null for none. Default: the page itself. */
  canonical?: string | null;
  head?: string;
  body?: string;
  words?: number;
  status?: number;
  /** Left out of the sitemap (noindex and canonicalised pages). */
  unlisted?: boolean;
}

function html(path: string, spec: Spec): string {
  const key = spec.key ?? path;
  const seed = seedOf(key);
  const title = spec.title ?? `${prose(3, seed + 1)} shop guide ${key}`.slice(0, 58);
  const canonical = spec.canonical === undefined ? `${SHOP}${path}` : spec.canonical;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${title}</title>
<meta name="description" content="All about ${prose(8, seed + 2)} at the shop, page ${key}.">
<meta name="viewport" content="width=device-width, initial-scale=1">
${canonical === null ? "" : `<link rel="canonical" href="${canonical}">`}
<meta property="og:title" content="${title}"><meta property="og:description" content="About ${key}"><meta property="og:image" content="${SHOP}/img/logo.png">
<meta name="twitter:card" content="summary">
${spec.head ?? ""}
</head>
<body>
<nav><a href="/">Home</a></nav>
<main>
<h1>${spec.h1 ?? `About ${prose(2, seed + 3)} ${key}`}</h1>
<p>${prose(spec.words ?? 220, seed)}</p>
<img src="/img/logo.png" alt="The shop's logo">
${spec.body ?? ""}
</main>
<footer>The shop</footer>
</body>
</html>`;
}

const ld = (data: unknown) => `<script type="application/ld+json">${JSON.stringify(data)}</script>`;
const CONTEXT = "https://schema.org";
const IMAGE = `${SHOP}/img/logo.png`;
const ORG = { "@type": "Organization", name: "The Shop" };
const OFFER = { "@type": "Offer", price: "19.00", priceCurrency: "EUR", availability: "https://schema.org/InStock", url: `${SHOP}/sd/product-good` };
const PRODUCT = { "@context": CONTEXT, "@type": "Product", name: "Wool hat", image: IMAGE, description: "A warm hat", brand: ORG, sku: "H1" };
const RATING = { "@type": "AggregateRating", ratingValue: 4.5, reviewCount: 12, bestRating: 5, worstRating: 1 };
const EVENT = {
  "@context": CONTEXT,
  "@type": "Event",
  name: "Spring fair",
  description: "Stalls and music",
  endDate: "2027-04-02",
  eventStatus: "https://schema.org/EventScheduled",
  image: IMAGE,
  offers: { ...OFFER, url: `${SHOP}/sd/event-good` },
  organizer: ORG,
  performer: { "@type": "Person", name: "A band" },
};
const RECIPE = { "@context": CONTEXT, "@type": "Recipe", name: "Plum cake", image: IMAGE };
const ARTICLE = { headline: "Knitting", image: IMAGE, datePublished: "2026-01-02", dateModified: "2026-01-03", author: { "@type": "Person", name: "Ann" } };
const ADDRESS = { "@type": "PostalAddress", streetAddress: "1 Main St", addressLocality: "Town" };

/** A broken JSON-LD block: its syntax error is the line of "sku" (no comma after "name"). */
const BROKEN = `<script type="application/ld+json">
{
  "@context": "https://schema.org",
  "@type": "Product",
  "name": "Hat"
  "sku": "H2"
}
</script>`;

/** Every route: path → page spec. */
const PAGES: Record<string, Spec> = {
  // Structured data: planted
  "/sd/product-missing": { head: ld(PRODUCT) },
  "/sd/offer-missing": { head: ld({ ...PRODUCT, offers: { ...OFFER, price: undefined } }) },
  "/sd/event-missing": { head: ld(EVENT) },
  "/sd/jsonld-broken": { head: BROKEN },
  "/sd/recipe-partial": { head: ld(RECIPE) },
  "/sd/microdata-missing": {
    body: '<div itemscope itemtype="https://schema.org/Product"><span itemprop="name">Hat</span><img itemprop="image" src="/img/logo.png" alt="Hat"><p itemprop="description">Warm</p><span itemprop="brand">Shop</span><span itemprop="sku">H3</span></div>',
  },
  // Structured data: clean twins, one per type
  "/sd/rdfa-good": {
    body: `<div vocab="https://schema.org/" typeof="Event"><span property="name">Fair</span><time property="startDate">2027-04-01</time>
<span property="location" typeof="Place"><span property="name">Hall</span></span><p property="description">Stalls</p><time property="endDate">2027-04-02</time>
<span property="eventStatus">Scheduled</span><img property="image" src="/img/logo.png" alt="Fair"><span property="offers" typeof="Offer"><span property="price">0</span>
<span property="priceCurrency">EUR</span><span property="availability">InStock</span><a property="url" href="/sd/rdfa-good">Tickets</a></span>
<span property="organizer">The Shop</span><span property="performer">A band</span></div>`,
  },
  "/sd/product-good": { head: ld({ ...PRODUCT, offers: OFFER, aggregateRating: RATING }) },
  "/sd/event-good": { head: ld({ ...EVENT, startDate: "2027-04-01", location: { "@type": "Place", name: "Hall", address: ADDRESS } }) },
  "/sd/recipe-good": {
    head: ld({
      ...RECIPE,
      author: { "@type": "Person", name: "Ann" },
      datePublished: "2026-01-02",
      description: "A cake",
      recipeIngredient: ["plums"],
      recipeInstructions: [{ "@type": "HowToStep", text: "Bake" }],
      recipeYield: "8",
      totalTime: "PT1H",
    }),
  },
  "/sd/article-good": { head: ld({ "@context": CONTEXT, "@type": "BlogPosting", ...ARTICLE }) },
  "/sd/breadcrumb-good": {
    head: ld({
      "@context": CONTEXT,
      "@type": "BreadcrumbList",
      itemListElement: [
        { "@type": "ListItem", position: 1, name: "Shop", item: `${SHOP}/` },
        { "@type": "ListItem", position: 2, name: "Hats" },
      ],
    }),
  },
  "/sd/faq-good": {
    head: ld({
      "@context": CONTEXT,
      "@type": "FAQPage",
      mainEntity: [{ "@type": "Question", name: "Open?", acceptedAnswer: { "@type": "Answer", text: "Daily" } }],
    }),
  },
  "/sd/howto-good": {
    head: ld({
      "@context": CONTEXT,
      "@type": "HowTo",
      name: "Wash wool",
      image: IMAGE,
      totalTime: "PT10M",
      supply: ["soap"],
      tool: ["basin"],
      estimatedCost: "1 EUR",
      step: [{ "@type": "HowToStep", text: "Soak" }],
    }),
  },
  "/sd/org-good": { head: ld({ "@context": CONTEXT, ...ORG, url: SHOP, logo: IMAGE, sameAs: ["https://social.example/shop"] }) },
  "/sd/local-good": {
    head: ld({
      "@context": CONTEXT,
      "@type": "Store",
      name: "The Shop",
      address: ADDRESS,
      telephone: "+1 555 0100",
      url: SHOP,
      geo: { "@type": "GeoCoordinates", latitude: 1, longitude: 2 },
      openingHoursSpecification: [{ "@type": "OpeningHoursSpecification", opens: "09:00", closes: "17:00" }],
      priceRange: "$$",
    }),
  },
  "/sd/video-good": {
    head: ld({
      "@context": CONTEXT,
      "@type": "VideoObject",
      name: "Knitting video",
      thumbnailUrl: IMAGE,
      uploadDate: "2026-01-02",
      description: "How to knit",
      contentUrl: `${SHOP}/video.mp4`,
      duration: "PT2M",
    }),
  },
  "/sd/job-good": {
    head: ld({
      "@context": CONTEXT,
      "@graph": [
        {
          "@type": "JobPosting",
          title: "Shop assistant",
          description: "Help customers",
          datePosted: "2026-01-02",
          hiringOrganization: ORG,
          jobLocation: { "@type": "Place", address: ADDRESS },
          baseSalary: { "@type": "MonetaryAmount", currency: "EUR", value: 1 },
          employmentType: "PART_TIME",
          validThrough: "2027-01-01",
          identifier: { "@type": "PropertyValue", name: "Shop", value: "7" },
        },
      ],
    }),
  },
  "/sd/review-good": {
    head: ld({
      "@context": CONTEXT,
      "@type": "Review",
      author: { "@type": "Person", name: "Ann" },
      reviewRating: { "@type": "Rating", ratingValue: 5 },
      itemReviewed: { "@type": "Organization", name: "The Shop", url: SHOP, logo: IMAGE, sameAs: ["https://social.example/shop"] },
      datePublished: "2026-01-02",
    }),
  },
  // Canonicals: planted, then the clean twin
  "/canon/to-noindex": { canonical: `${SHOP}/canon/noindex-target`, unlisted: true },
  "/canon/noindex-target": { head: '<meta name="robots" content="noindex">', unlisted: true },
  "/canon/deep/page": { canonical: `${SHOP}/`, unlisted: true },
  "/canon/multiple": { head: `<link rel="canonical" href="${SHOP}/canon/multiple">` },
  "/canon/in-body": { canonical: null, body: `<link rel="canonical" href="${SHOP}/canon/in-body">` },
  "/canon/clean": {},
  // hreflang: a clean pair with x-default, a page whose alternates are a 404, a canonicalised
  // page and a noindex page, and a page with an invalid region
  "/intl/en": { head: alternates("/intl/en", { en: "/intl/en", de: "/intl/de", "x-default": "/intl/en" }) },
  "/intl/de": { head: alternates("/intl/de", { en: "/intl/en", de: "/intl/de", "x-default": "/intl/en" }) },
  "/intl/fr": { head: alternates("/intl/fr", FRENCH_SET()) },
  "/intl/it": { canonical: `${SHOP}/intl/it-main`, head: alternates("/intl/it", FRENCH_SET()), unlisted: true },
  "/intl/it-main": {},
  "/intl/pt": { head: `<meta name="robots" content="noindex">${alternates("/intl/pt", FRENCH_SET())}`, unlisted: true },
  "/intl/nl": { head: alternates("/intl/nl", { "nl-NL": "/intl/nl", "es-ZZ": "/intl/nl", "x-default": "/intl/nl" }) },
  // Duplicates: URL variants of one page (index file, case, parameters, trailing slash) and
  // two copies at unrelated URLs; none has a canonical, as sites serving copies usually do not
  "/dup/shoes/": { key: "shoes", canonical: null },
  "/dup/shoes/index.html": { key: "shoes", canonical: null },
  "/dup/Hats": { key: "hats", canonical: null },
  "/dup/hats": { key: "hats", canonical: null },
  "/dup/bags": { key: "bags", canonical: null },
  "/dup/bags?sort=price": { key: "bags", canonical: null },
  "/dup/socks": { key: "socks", canonical: null },
  "/dup/socks/": { key: "socks", canonical: null },
  // Served on the www. host too; its <base> keeps the links there on the shop's own host
  "/dup/scarf": { key: "scarf", canonical: null, head: `<base href="${SHOP}/">` },
  "/dup/copy-a": { key: "copy", canonical: null },
  "/dup/copy-b": { key: "copy", canonical: null },
  // Page hygiene: planted
  "/misc/two-descriptions": { head: '<meta name="description" content="A second description of this page, which crawlers may pick instead.">' },
  "/misc/h1-a": { h1: "Our opening hours" },
  "/misc/h1-b": { h1: "Our opening hours" },
  "/misc/h1-title": { title: "Wool hats and scarves for the winter", h1: "Wool hats and scarves for the winter" },
  "/misc/soft-404": { title: "Page not found: we looked everywhere for it", h1: "Sorry", words: 40 },
  "/misc/form-http": { body: '<form action="http://shop.example/subscribe" method="post"><input name="email"></form>' },
  "/misc/protocol-relative": { body: '<script src="//cdn.example.net/app.js"></script>' },
  "/misc/blank": { body: '<a href="https://other.example/" target="_blank">Our supplier</a>' },
  "/misc/nofollow": { body: '<a href="/canon/clean" rel="nofollow">Canonical guide</a>' },
  "/misc/blocked-script": { body: '<script src="/assets/private/app.js"></script>' },
  "/misc/Upper-Case": {},
  "/misc/under_score": {},
  "/misc/double//slash": {},
  "/misc/caf%C3%A9": {},
  // Page hygiene: clean twins (a form posting over https, links that open safely, an external nofollow)
  "/misc/clean": {
    body: '<script src="/assets/app.js"></script><form action="/subscribe" method="post"><input name="email"></form><a href="https://other.example/" target="_blank" rel="noopener nofollow">Supplier</a> <a href="/canon/clean" target="_blank">Canonical guide</a>',
  },
  // Pagination: a clean series, and one whose page 2 is canonicalised to page 1 and whose page 3 names the wrong prev
  "/blog/page/1": { head: '<link rel="next" href="/blog/page/2">' },
  "/blog/page/2": { head: '<link rel="prev" href="/blog/page/1"><link rel="next" href="/blog/page/3">' },
  "/blog/page/3": { head: '<link rel="prev" href="/blog/page/2">' },
  "/list/page/1": { head: '<link rel="next" href="/list/page/2">' },
  "/list/page/2": { canonical: `${SHOP}/list/page/1`, head: '<link rel="prev" href="/list/page/1"><link rel="next" href="/list/page/3">', unlisted: true },
  "/list/page/3": { head: '<link rel="prev" href="/list/page/1">' },
};

function FRENCH_SET(): Record<string, string> {
  return { fr: "/intl/fr", es: "/intl/es", it: "/intl/it", pt: "/intl/pt", "x-default": "/intl/fr" };
}

function alternates(_self: string, set: Record<string, string>): string {
  return Object.entries(set)
    .map(([lang, path]) => `<link rel="alternate" hreflang="${lang}" href="${SHOP}${path}">`)
    .join("");
}

const SECURITY_HEADERS = {
  "strict-transport-security": "max-age=63072000; includeSubDomains",
  "content-security-policy": "default-src 'self'",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "strict-origin-when-cross-origin",
};

function home(): string {
  const links = Object.keys(PAGES)
    .map((path) => `<li><a href="${path}">${path}</a></li>`)
    .concat(`<li><a href="${WWW}/dup/scarf">Scarves</a></li>`)
    .join("\n");
  return html("/", { title: "The shop: wool, linen and things for the home", h1: "Welcome to the shop", body: `<ul>${links}</ul>` });
}

/** A sitemap `<url>`, with its hreflang alternates (language → path) when given. */
function entry(path: string, alternates: Record<string, string> = {}): string {
  const links = Object.entries(alternates)
    .map(([lang, href]) => `<xhtml:link rel="alternate" hreflang="${lang}" href="${SHOP}${href}"/>`)
    .join("");
  return `<url><loc>${SHOP}${path}</loc>${links}</url>`;
}

const urlset = (entries: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">${entries}</urlset>`;

/** The site's sitemap: its English and German pages annotated with each other (clean). */
function sitemap(): string {
  const listed = ["/", ...Object.entries(PAGES).filter(([, spec]) => !spec.unlisted).map(([path]) => path)];
  const pair = { en: "/intl/en", de: "/intl/de" };
  return urlset(listed.map((path) => entry(path, path === "/intl/en" || path === "/intl/de" ? pair : {})).join(""));
}

/** A second sitemap whose hreflang annotations are planted wrong: a user-assigned region, no return link. */
function intlSitemap(): string {
  return urlset(entry("/intl/nl", { "nl-XX": "/intl/nl", en: "/intl/en" }) + entry("/intl/en", { en: "/intl/en", de: "/intl/de" }));
}

type Route = { status: number; type: string; body: string };

function route(pathAndQuery: string): Route {
  const text = (body: string, type = "text/html; charset=utf-8") => ({ status: 200, type, body });
  if (pathAndQuery === "/") return text(home());
  if (pathAndQuery === "/robots.txt")
    return text(`User-agent: *\nAllow: /\nDisallow: /assets/private/\nSitemap: ${SHOP}/sitemap.xml\nSitemap: ${SHOP}/sitemap-intl.xml\n`, "text/plain");
  if (pathAndQuery === "/sitemap.xml") return text(sitemap(), "application/xml");
  if (pathAndQuery === "/sitemap-intl.xml") return text(intlSitemap(), "application/xml");
  if (pathAndQuery.startsWith("/img/")) return text("PNG", "image/png");
  if (pathAndQuery.startsWith("/assets/")) return text("console.log(1)", "text/javascript");
  const spec = PAGES[pathAndQuery];
  if (!spec) return { status: 404, type: "text/html", body: "<html><title>Not found</title></html>" };
  return { status: spec.status ?? 200, type: "text/html; charset=utf-8", body: html(pathAndQuery.split("?")[0] as string, spec) };
}

const urlOf = (input: string | URL | Request) =>
  new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);

/** The shop, as a `fetch` that answers https://shop.example only (other hosts fail as unreachable). */
export function shopFetch(): typeof fetch {
  return async (input) => {
    const url = urlOf(input);
    if (url.origin === WWW && url.pathname !== "/dup/scarf" && url.pathname !== "/robots.txt")
      return new Response(null, { status: 301, headers: { location: `${SHOP}${url.pathname}${url.search}` } });
    if (url.origin !== SHOP && url.origin !== WWW) throw new TypeError("fetch failed");
    const { status, type, body } = route(`${url.pathname}${url.search}`);
    return new Response(body, { status, headers: { "content-type": type, ...SECURITY_HEADERS } });
  };
}

/** A one-page site at https://bare.example that sends no security headers. */
export function bareSiteFetch(): typeof fetch {
  return async (input) => {
    const url = urlOf(input);
    if (url.pathname === "/robots.txt") return new Response("User-agent: *\nAllow: /\n", { headers: { "content-type": "text/plain" } });
    if (url.pathname !== "/") return new Response("not found", { status: 404 });
    return new Response(html("/", { canonical: "https://bare.example/" }).replaceAll(SHOP, "https://bare.example"), {
      headers: { "content-type": "text/html; charset=utf-8" },
    });
  };
}
