/**
 * A generated site of any size, the one scripts/bench-seo-crawl.ts crawls: `/` and `/p/1` …
 * `/p/<n-1>`, about 8 KB each, 20 links per page (page i links to i+1, so every page is
 * reachable, and to 19 others chosen by a mulberry32 PRNG seeded per page),
 * a self canonical (built from the Host header), robots.txt allowing everything. Pages are
 * assembled per request from a shared tail, so a 100,000-page site costs no memory to serve.
 * @module
 */
import type { IncomingMessage, ServerResponse } from "node:http";

export function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const LOREM =
  "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat. ";

const TAIL = Buffer.from(`${`<p>${LOREM}</p>`.repeat(26)}</main></body></html>`);
const ROBOTS = Buffer.from("User-agent: *\nAllow: /\n");

export const pathOf = (i: number): string => (i === 0 ? "/" : `/p/${i}`);

/** The 20 link targets of page `i` in a site of `count` pages. */
export function linksOf(i: number, count: number): number[] {
  const random = mulberry32(42 + Math.imul(i, 7919));
  const targets = new Set<number>();
  if (i + 1 < count) targets.add(i + 1);
  while (targets.size < Math.min(20, count - 1)) targets.add(1 + Math.floor(random() * (count - 1)));
  return [...targets];
}

export function generatedPage(i: number, count: number, origin: string): Buffer {
  const links = linksOf(i, count)
    .map((t) => `<li><a href="${pathOf(t)}">Page ${t}</a></li>`)
    .join("");
  const head = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Generated page number ${i}</title><link rel="canonical" href="${origin}${pathOf(i)}"></head><body><h1>Page ${i}</h1><nav><ul>${links}</ul></nav><main>`;
  return Buffer.concat([Buffer.from(head), TAIL]);
}

/** The page index a path names, or -1. */
export function indexOf(path: string, count: number): number {
  if (path === "/") return 0;
  const match = /^\/p\/(\d+)$/.exec(path);
  const i = match ? Number(match[1]) : -1;
  return i > 0 && i < count ? i : -1;
}

/** A node:http handler serving the site of `count` pages. */
export function generatedSiteHandler(count: number): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const path = req.url ?? "/";
    if (path === "/robots.txt") {
      res.writeHead(200, { "content-type": "text/plain", "content-length": ROBOTS.byteLength });
      res.end(ROBOTS);
      return;
    }
    const i = indexOf(path, count);
    if (i < 0) {
      res.writeHead(404, { "content-type": "text/plain", "content-length": 9 });
      res.end("not found");
      return;
    }
    const page = generatedPage(i, count, `http://${req.headers.host ?? "localhost"}`);
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-length": page.byteLength });
    res.end(page);
  };
}
