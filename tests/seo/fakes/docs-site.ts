/**
 * A staging copy of a ~500-page documentation site on loopback, built the way documentation
 * generators build them, with the problems the issue saw on a real one planted:
 * - every canonical names production (https://docs.example.com/docs/...), so a literal reading
 *   drops every page as non-indexable and the duplicate checks go silent;
 * - every page shares one meta description (the finding that went missing);
 * - the sitemap lives only in the start directory (/docs/sitemap.xml), lists production URLs,
 *   an orphan page, two entries on an old host and two without the /docs prefix;
 * - no robots.txt;
 * - a meta-refresh stub and a script-redirect stub;
 * - reference pages of 60–150 words of prose around code blocks, hub pages that are lists of
 *   links, and only three genuinely thin pages;
 * - one duplicate title pair, one near-duplicate pair, one canonical to a page that is gone.
 * Options switch the sitemap's discovery path and the start page's canonical.
 * @module
 */
import type { ServerResponse } from "node:http";
import { serveSite, type TestSite } from "../crawl/site-server.ts";
import { mulberry32 } from "./generated-site.ts";

export const PRODUCTION = "https://docs.example.com";
export const SHARED_DESCRIPTION = "Acme documentation: guides, tutorials and the API reference for the Acme platform.";

const VOCABULARY =
  "account agent alert archive audit backup batch billing bucket cache certificate channel client cluster command config connector console container credential dashboard database deploy device domain endpoint environment event export feature filter gateway group hook identity image index instance integration job key label limit listener log metric migration module monitor namespace network node notification object operator owner package partition permission pipeline plan policy pool port project provider queue quota record region release replica repository request resource role route rule runtime schedule schema scope secret segment server service session setting snapshot source stack stage storage stream subnet subscription tag task team template tenant token topic trace trigger user variable version volume webhook workflow workspace zone build check create delete enable disable fetch list read update write rotate scale restore sync apply attach detach"
    .split(" ");

interface Page {
  path: string;
  title: string;
  kind: "guide" | "reference" | "hub" | "thin" | "index";
  section: string;
  words: number;
  seed: number;
}

function prose(words: number, seed: number): string {
  const random = mulberry32(seed);
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(VOCABULARY[Math.floor(random() * VOCABULARY.length)] as string);
  const paragraphs: string[] = [];
  for (let i = 0; i < out.length; i += 40) paragraphs.push(`<p>${out.slice(i, i + 40).join(" ")}.</p>`);
  return paragraphs.join("\n");
}

const SECTIONS = [
  { name: "getting-started", kind: "guide", count: 20 },
  { name: "guides", kind: "guide", count: 170 },
  { name: "api", kind: "reference", count: 250 },
  { name: "cli", kind: "reference", count: 50 },
] as const;

/** The site's pages: an index, a hub per section, the section pages, three thin ones. */
export function docsPages(): Page[] {
  const pages: Page[] = [{ path: "/docs/", title: "Acme documentation", kind: "index", section: "", words: 260, seed: 1 }];
  let seed = 100;
  for (const section of SECTIONS) {
    pages.push({ path: `/docs/${section.name}/`, title: `${section.name} overview`, kind: "hub", section: section.name, words: 0, seed: seed++ });
    for (let i = 1; i <= section.count; i++) {
      const reference = section.kind === "reference";
      pages.push({
        path: `/docs/${section.name}/${section.name}-${i}`,
        title: `${reference ? "Reference" : "Guide"}: ${section.name} topic ${i}`,
        kind: section.kind,
        section: section.name,
        words: reference ? 60 + ((i * 37) % 90) : 220 + ((i * 53) % 300),
        seed: seed++,
      });
    }
  }
  for (let i = 1; i <= 3; i++)
    pages.push({ path: `/docs/guides/stub-${i}`, title: `Stub page ${i}`, kind: "thin", section: "guides", words: 25, seed: seed++ });
  return pages;
}

export interface DocsOptions {
  /** Where the sitemap is announced: only in the start directory (default), robots.txt, /sitemap_index.xml or <link rel=sitemap>. */
  sitemapAt?: "start-dir" | "robots" | "sitemap-index" | "link";
  /** The start page's canonical: production (default), none (the twin is then found from other pages). */
  startCanonical?: "production" | "none";
}

const PLANTED = {
  duplicateTitle: ["/docs/guides/guides-10", "/docs/guides/guides-11"],
  nearDuplicate: ["/docs/guides/guides-20", "/docs/guides/guides-21"],
  goneCanonical: "/docs/guides/guides-30",
  orphan: "/docs/guides/orphan-guide",
  metaRefresh: "/docs/old-page",
  scriptRedirect: "/docs/moved",
};
export { PLANTED as DOCS_PLANTED };

function sidebar(pages: Page[], section: string): string {
  const hubs = pages.filter((p) => p.kind === "hub");
  const near = pages.filter((p) => p.section === section && p.kind !== "hub").slice(0, 20);
  const link = (p: Page) => `<li><a href="${p.path}">${p.title}</a></li>`;
  return `<nav class="sidebar"><ul>${hubs.map(link).join("")}</ul><ul>${near.map(link).join("")}</ul></nav>`;
}

function body(page: Page, pages: Page[]): string {
  if (page.kind === "hub") {
    const members = pages.filter((p) => p.section === page.section && p.kind !== "hub");
    return `<h1>${page.title}</h1><ul>${members.map((p) => `<li><a href="${p.path}">${p.title}</a>: read more about it</li>`).join("")}</ul>`;
  }
  if (page.kind === "index") {
    const hubs = pages.filter((p) => p.kind === "hub");
    return `<h1>${page.title}</h1>${prose(page.words, page.seed)}<ul>${hubs.map((p) => `<li><a href="${p.path}">${p.title}</a></li>`).join("")}</ul><p><a href="${PLANTED.metaRefresh}">Old page</a> <a href="${PLANTED.scriptRedirect}">Moved page</a></p>`;
  }
  const twin = PLANTED.nearDuplicate.includes(page.path);
  const code = page.kind === "reference" ? `<pre><code>acme ${page.section} ${page.seed} --format json</code></pre>` : "";
  return `<h1>${page.title}</h1>${twin ? prose(400, 7) : prose(page.words, page.seed)}${code}`;
}

function render(page: Page, pages: Page[], options: DocsOptions): string {
  const title = PLANTED.duplicateTitle.includes(page.path) ? "Configuring the Acme platform | Acme Docs" : `${page.title} | Acme Docs`;
  const canonicalPath = page.path === PLANTED.goneCanonical ? "/docs/guides/removed-page" : page.path;
  const canonical =
    page.kind === "index" && options.startCanonical === "none" ? "" : `<link rel="canonical" href="${PRODUCTION}${canonicalPath}">`;
  const sitemapLink = page.kind === "index" && options.sitemapAt === "link" ? `<link rel="sitemap" type="application/xml" href="/docs/site-map.xml">` : "";
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title><meta name="description" content="${SHARED_DESCRIPTION}">${canonical}${sitemapLink}
<meta property="og:title" content="${page.title}"><meta property="og:description" content="${SHARED_DESCRIPTION}"><meta property="og:image" content="${PRODUCTION}/og.png"><meta name="twitter:card" content="summary">
</head><body><header><a href="/docs/">Acme Docs</a></header>${sidebar(pages, page.section)}
<main><article>${body(page, pages)}</article></main><footer>Copyright Acme. All rights reserved.</footer></body></html>`;
}

function sitemapXml(pages: Page[]): string {
  const urls = [
    ...pages.map((p) => `${PRODUCTION}${p.path}`),
    `${PRODUCTION}${PLANTED.orphan}`,
    "https://old.example.org/docs/legacy-1",
    "https://old.example.org/docs/legacy-2",
    `${PRODUCTION}/intro`,
    `${PRODUCTION}/setup`,
  ];
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.map((u) => `<url><loc>${u}</loc></url>`).join("")}</urlset>`;
}

const STUBS: Record<string, string> = {
  [PLANTED.metaRefresh]: `<!doctype html><html><head><meta http-equiv="refresh" content="0; url='/docs/guides/guides-1'"><title>Moved</title></head><body><p>This page has moved.</p></body></html>`,
  [PLANTED.scriptRedirect]: `<!doctype html><html><head><title>Redirecting</title><script>window.location.replace("/docs/getting-started/getting-started-1");</script></head><body>Redirecting…</body></html>`,
};

function send(res: ServerResponse, status: number, type: string, text: string): void {
  res.writeHead(status, { "content-type": type });
  res.end(text);
}

function sitemapPath(options: DocsOptions): string {
  switch (options.sitemapAt ?? "start-dir") {
    case "sitemap-index":
      return "/sitemap_index.xml";
    case "link":
      return "/docs/site-map.xml";
    case "robots":
      return "/maps/docs.xml";
    default:
      return "/docs/sitemap.xml";
  }
}

export function serveDocsSite(options: DocsOptions = {}): Promise<TestSite> {
  const pages = docsPages();
  const byPath = new Map(pages.map((p) => [p.path, p]));
  byPath.set(PLANTED.orphan, { path: PLANTED.orphan, title: "Orphan guide", kind: "guide", section: "guides", words: 300, seed: 9999 });
  const mapPath = sitemapPath(options);
  return serveSite((req, res) => {
    const path = (req.url ?? "/").split("?")[0] as string;
    if (path === "/robots.txt") {
      if (options.sitemapAt === "robots") return send(res, 200, "text/plain", `User-agent: *\nAllow: /\nSitemap: ${PRODUCTION}${mapPath}\n`);
      return send(res, 404, "text/html", "<html><title>Not found</title></html>");
    }
    if (path === mapPath) return send(res, 200, "application/xml", sitemapXml([...byPath.values()]));
    const stub = STUBS[path];
    if (stub) return send(res, 200, "text/html; charset=utf-8", stub);
    const page = byPath.get(path);
    if (!page) return send(res, 404, "text/html", "<html><head><title>Not found</title></head><body>Not found</body></html>");
    send(res, 200, "text/html; charset=utf-8", render(page, pages, options));
  });
}
