/**
 * A single-page app and its server-rendered twin on 127.0.0.1: the same title, text and 50
 * links, built by `/app.js` in the app and written by the server in the twin. Every path
 * serves the app's shell (history routing), as SPA hosts do.
 * @module
 */
import { serveSite, type TestSite } from "../crawl/site-server.ts";

export const SPA_LINKS = 50;

const HEAD = `<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">`;
const words = (path: string) =>
  `This page ${path} of the fixture app explains how charging sites are found, compared and reached. `.repeat(12);

function links(): string {
  return Array.from({ length: SPA_LINKS }, (_, i) => `<a href="/p/${i + 1}">Charging guide part ${i + 1}</a>`).join(" ");
}

/** The markup the app writes into its mount point (and the twin serves as is). */
function content(path: string): string {
  return `<main><h1>Charging guide ${path}</h1><p>${words(path)}</p><nav>${links()}</nav></main>`;
}

/** The app: the same words, heading and links as `content`, written in the browser. */
const APP_JS = `(() => {
  const path = location.pathname;
  const words = ("This page " + path + " of the fixture app explains how charging sites are found, compared and reached. ").repeat(12);
  let links = "";
  for (let i = 1; i <= ${SPA_LINKS}; i++) links += '<a href="/p/' + i + '">Charging guide part ' + i + "</a> ";
  document.title = "Charging guide " + path + ": find and compare sites";
  if (!document.querySelector('meta[name="description"]')) {
    const meta = document.createElement("meta");
    meta.name = "description";
    meta.content = "How to find, compare and reach charging sites: the fixture app's guide, page " + path + ".";
    document.head.append(meta);
  }
  document.getElementById("root").innerHTML =
    "<main><h1>Charging guide " + path + "</h1><p>" + words + "</p><nav>" + links + "</nav></main>";
})();`;

export interface SpaOptions {
  /** Serve the content in the HTML instead of building it by script. */
  serverRendered?: boolean;
  /** Extra markup for the shell's head, per path (a raw noindex, a raw canonical). */
  head?: (path: string) => string;
  /** Replaces the app script's body (a script that changes robots or canonical). */
  script?: string;
}

export function serveSpaSite(options: SpaOptions = {}): Promise<TestSite> {
  return serveSite((req, res) => {
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    if (path === "/robots.txt")
      return void res.writeHead(200, { "content-type": "text/plain" }).end("User-agent: *\nDisallow: /private/\n");
    if (path.startsWith("/api/") || path.startsWith("/private/"))
      return void res.writeHead(200, { "content-type": "application/json" }).end("{}");
    if (path === "/app.js")
      return void res.writeHead(200, { "content-type": "text/javascript" }).end(options.script ?? APP_JS);
    if (path === "/app.css") return void res.writeHead(200, { "content-type": "text/css" }).end("main { margin: 1em; }");
    if (path === "/favicon.ico" || path.endsWith(".xml")) return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    const extra = options.head?.(path) ?? "";
    if (options.serverRendered)
      return void res.end(
        `<!doctype html><html lang="en"><head>${HEAD}<title>Charging guide ${path}: find and compare sites</title><meta name="description" content="How to find, compare and reach charging sites: the fixture app's guide, page ${path}.">${extra}</head><body><div id="root">${content(path)}</div><script src="/app.js" defer></script></body></html>`,
      );
    res.end(
      `<!doctype html><html lang="en"><head>${HEAD}<title>App</title><link rel="stylesheet" href="/app.css">${extra}</head><body><div id="root"></div><script src="/app.js"></script></body></html>`,
    );
  });
}
