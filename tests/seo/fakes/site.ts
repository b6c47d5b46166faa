/**
 * A one-page site on loopback for page reports, plus a fetch that routes a public-looking host
 * (shop.example) to it, so the PageSpeed and CrUX paths (skipped for local hosts) are tested too.
 * @module
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export const PAGE_HTML = `<!doctype html>
<html lang="en"><head>
<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>EV charging near you | Example</title>
<meta name="description" content="Find EV charging stations near you, with live availability and prices.">
<link rel="canonical" href="https://shop.example/page">
<link rel="alternate" hreflang="en" href="https://shop.example/page">
<link rel="alternate" hreflang="de" href="https://shop.example/de/page">
<meta property="og:title" content="EV charging near you">
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Organization","name":"Example"}</script>
</head><body>
<h1>EV charging near you</h1><h3>Skipped a level</h3>
<p>${"Charging stations with live availability and fair prices for every driver. ".repeat(8)}</p>
<img src="/map.png"><a href="/stations">Stations</a>
</body></html>`;

export interface Site {
  url: string;
  /** Routes https://shop.example/* to this site; everything else goes out unchanged. */
  fetch: typeof fetch;
  requests: string[];
  close(): Promise<void>;
}

export async function startSite(): Promise<Site> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(req.url ?? "");
    if (req.url === "/old") {
      res.writeHead(301, { location: "/page" });
      return res.end();
    }
    if (req.url === "/page") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      return res.end(PAGE_HTML);
    }
    res.writeHead(404, { "content-type": "text/html" });
    res.end("<html><head><title>Not found</title></head><body>gone</body></html>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const routed: typeof fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.hostname === "shop.example") {
      url.protocol = "http:";
      url.host = `127.0.0.1:${port}`;
    }
    return fetch(url, init);
  };
  return {
    url: `http://127.0.0.1:${port}`,
    fetch: routed,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
