/**
 * A template-built image gallery on loopback, in the shape of the issue's 3,300-page site: every
 * page comes from one template with a sitewide navigation bar (home, gallery, and language tabs,
 * the "Go" tab labelled by its `title`), no Open Graph or Twitter tags anywhere, and a template
 * heading skip (h1 then h3) in every item page's main content. Planted, with the fix a
 * professional names for each:
 * - the sub-navigation of the first `brokenSections` categories links 12 archive pages that are
 *   gone (404): broken navigation links on ~13 % of the pages → fix the template's archive links;
 * - every second item's photo has no alt text → add alt text to the item template's image;
 * - three categories' items carry one shared caption → near-duplicates: write captions;
 * - two categories' items share one title → duplicate titles.
 * Everything else is clean: unique titles and descriptions, self canonicals, lang, viewport,
 * robots.txt and a sitemap. Pages are rendered per request, so 10,000 pages cost nothing to serve.
 * @module
 */
import type { ServerResponse } from "node:http";
import { serveSite, type TestSite } from "../crawl/site-server.ts";
import { mulberry32 } from "./generated-site.ts";

const WORDS =
  "amber autumn beach bridge canyon castle cliff cloud coast dawn desert dune dusk field forest glacier harbour hill island lagoon lake lantern market meadow mist moon mountain night ocean orchard palace path peak pier pine plain prairie rain reef ridge river road rock ruin sand savanna sea shore sky snow spring star storm stream street summit sun sunset swamp temple tide tower town trail tree tundra valley village volcano waterfall wave wood"
    .split(" ");

export const LANGUAGES = ["go", "rust", "python"] as const;
export const ITEMS_PER_CATEGORY = 110;
/** Archive links in the broken sub-navigation. */
export const BROKEN_ARCHIVES = 12;

export interface GalleryOptions {
  /** Categories of 110 items each: 30 make the issue's 3,300-item site, 91 about 10,000 pages. */
  categories?: number;
  /** Categories whose sub-navigation carries the 12 gone archive links. */
  brokenSections?: number;
}

interface Shape {
  categories: number;
  brokenSections: number;
}

const shapeOf = (o: GalleryOptions): Shape => ({ categories: o.categories ?? 30, brokenSections: o.brokenSections ?? 4 });

/** Which planted problem an item carries. */
export function galleryPlanted(shape: Shape) {
  const last = shape.categories;
  return {
    /** Categories whose items share one caption (near-duplicates). */
    nearDuplicate: [last - 2, last - 1, last],
    /** Categories whose items share one title. */
    duplicateTitle: [last - 4, last - 3],
  };
}

/** Every HTML page of the site: home, gallery index, language tabs, categories, items. */
export function galleryPageCount(options: GalleryOptions = {}): number {
  const { categories } = shapeOf(options);
  return 2 + LANGUAGES.length + categories + categories * ITEMS_PER_CATEGORY;
}

function prose(count: number, seed: number): string {
  const random = mulberry32(seed);
  const out: string[] = [];
  for (let i = 0; i < count; i++) out.push(WORDS[Math.floor(random() * WORDS.length)] as string);
  return out.join(" ");
}

const nav = `<header><nav><a href="/">Home</a> <a href="/gallery/">Gallery</a> ${LANGUAGES.map(
  (l) => `<a href="/lang/${l}" title="${l[0]?.toUpperCase()}${l.slice(1)} language: photos of programs written in it">${l === "go" ? "Go" : l[0]?.toUpperCase() + l.slice(1)}</a>`,
).join(" ")}</nav></header>`;

function subnav(category: number, shape: Shape): string {
  const broken =
    category <= shape.brokenSections
      ? Array.from({ length: BROKEN_ARCHIVES }, (_, i) => `<a href="/gallery/archive/${2014 + i}">Archive ${2014 + i}</a>`).join(" ")
      : "";
  return `<nav class="sub"><a href="/gallery/c${category}/">Category ${category}</a> ${broken}</nav>`;
}

function page(path: string, title: string, description: string, main: string, extra = ""): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title><meta name="description" content="${description}"><link rel="canonical" href="{{origin}}${path}"></head>
<body>${nav}${extra}<main>${main}</main><footer>© Gallery. All photos reserved.</footer></body></html>`;
}

function item(category: number, index: number, shape: Shape): string {
  const planted = galleryPlanted(shape);
  const seed = category * 1000 + index;
  const path = `/gallery/c${category}/${index}`;
  const title = planted.duplicateTitle.includes(category)
    ? `Photo from category ${category} | Gallery`
    : `Photo ${index} of category ${category}: ${prose(3, seed)} | Gallery`;
  const caption = planted.nearDuplicate.includes(category) ? prose(160, category) : prose(160, seed);
  const alt = index % 2 === 0 ? "" : ` alt="${prose(4, seed + 1)}"`;
  const prev = index > 1 ? `<a href="/gallery/c${category}/${index - 1}">Previous photo</a>` : "";
  const next = index < ITEMS_PER_CATEGORY ? `<a href="/gallery/c${category}/${index + 1}">Next photo</a>` : "";
  const main = `<h1>Photo ${index} of category ${category}</h1><img src="/img/${category}-${index}.jpg"${alt}><h3>About this photo</h3><p>${caption}</p><p>${prev} ${next}</p>`;
  return page(path, title, `Photo ${index} in category ${category}: ${prose(12, seed + 2)}.`, main, subnav(category, shape));
}

function category(c: number, shape: Shape): string {
  const links = Array.from({ length: ITEMS_PER_CATEGORY }, (_, i) => `<li><a href="/gallery/c${c}/${i + 1}">Photo ${i + 1}</a></li>`).join("");
  const main = `<h1>Category ${c}</h1><p>${prose(40, c)}</p><ul>${links}</ul>`;
  return page(`/gallery/c${c}/`, `Category ${c} photos: ${prose(3, c)} | Gallery`, `All ${ITEMS_PER_CATEGORY} photos of category ${c}: ${prose(10, c + 7)}.`, main, subnav(c, shape));
}

function index(shape: Shape): string {
  const links = Array.from({ length: shape.categories }, (_, i) => `<li><a href="/gallery/c${i + 1}/">Category ${i + 1}</a></li>`).join("");
  return page("/gallery/", "All categories of the photo gallery | Gallery", `The gallery's ${shape.categories} categories, ${ITEMS_PER_CATEGORY} photos each, browsable by topic.`, `<h1>Gallery</h1><p>${prose(40, 3)}</p><ul>${links}</ul>`);
}

function home(): string {
  return page("/", "A photo gallery of places, built from one template", "Thousands of photos of places, by category and by programming language.", `<h1>Photo gallery</h1><p>${prose(260, 1)}</p><p><a href="/gallery/">Browse the gallery</a></p>`);
}

function language(l: string): string {
  return page(`/lang/${l}`, `Photos of programs written in ${l} | Gallery`, `Photos of screens showing programs written in the ${l} programming language.`, `<h1>Programs in ${l}</h1><p>${prose(240, l.length)}</p>`);
}

/** The HTML of `path`, or undefined for a URL the site does not serve. */
export function galleryPage(path: string, options: GalleryOptions = {}): string | undefined {
  const shape = shapeOf(options);
  if (path === "/") return home();
  if (path === "/gallery/") return index(shape);
  const lang = /^\/lang\/([a-z]+)$/.exec(path)?.[1];
  if (lang) return (LANGUAGES as readonly string[]).includes(lang) ? language(lang) : undefined;
  const found = /^\/gallery\/c(\d+)\/(\d*)$/.exec(path);
  const c = Number(found?.[1]);
  if (!found || c < 1 || c > shape.categories) return undefined;
  if (found[2] === "") return category(c, shape);
  const i = Number(found[2]);
  return i >= 1 && i <= ITEMS_PER_CATEGORY ? item(c, i, shape) : undefined;
}

function sitemap(origin: string, shape: Shape): string {
  const paths = ["/", "/gallery/", ...LANGUAGES.map((l) => `/lang/${l}`)];
  for (let c = 1; c <= shape.categories; c++) {
    paths.push(`/gallery/c${c}/`);
    for (let i = 1; i <= ITEMS_PER_CATEGORY; i++) paths.push(`/gallery/c${c}/${i}`);
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${paths.map((p) => `<url><loc>${origin}${p}</loc></url>`).join("")}</urlset>`;
}

function send(res: ServerResponse, status: number, type: string, text: string): void {
  res.writeHead(status, { "content-type": type });
  res.end(text);
}

export function serveGallerySite(options: GalleryOptions = {}): Promise<TestSite> {
  const shape = shapeOf(options);
  return serveSite((req, res, origin) => {
    const path = (req.url ?? "/").split("?")[0] as string;
    if (path === "/robots.txt") return send(res, 200, "text/plain", `User-agent: *\nAllow: /\nSitemap: ${origin}/sitemap.xml\n`);
    if (path === "/sitemap.xml") return send(res, 200, "application/xml", sitemap(origin, shape));
    if (path.startsWith("/img/")) return send(res, 200, "image/jpeg", "jpeg");
    const html = galleryPage(path, options);
    if (html === undefined) return send(res, 404, "text/html", "<html><head><title>Not found</title></head><body>Not found</body></html>");
    send(res, 200, "text/html; charset=utf-8", html.replaceAll("{{origin}}", origin));
  });
}
