/**
 * Test sites on 127.0.0.1: a fixture site from fixtures/seo/sites/<name> (routes.json plus
 * pages/*.html, `{{origin}}` filled in), or a programmable one. Every request is logged so
 * tests can assert what the crawler never asked for.
 * @module
 */
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

export interface LoggedRequest {
  path: string;
  at: number;
  userAgent: string;
}

export interface TestSite {
  origin: string;
  requests: LoggedRequest[];
  paths(): string[];
  close(): Promise<void>;
}

type Handler = (req: IncomingMessage, res: ServerResponse, origin: string) => void | Promise<void>;

export async function serveSite(handler: Handler): Promise<TestSite> {
  const requests: LoggedRequest[] = [];
  let origin = "";
  const server = createServer((req, res) => {
    requests.push({ path: req.url ?? "", at: performance.now(), userAgent: req.headers["user-agent"] ?? "" });
    Promise.resolve(handler(req, res, origin)).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    requests,
    paths: () => requests.map((r) => r.path),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

interface Route {
  file?: string;
  page?: string;
  type?: string;
  status?: number;
  body?: string;
  redirect?: string;
  headers?: Record<string, string>;
  delayMs?: number;
  padBytes?: number;
  gzip?: boolean;
}

/** Serves fixtures/seo/sites/<name>. */
export function serveFixtureSite(name: string): Promise<TestSite> {
  const dir = join("fixtures/seo/sites", name);
  const routes = JSON.parse(readFileSync(join(dir, "routes.json"), "utf8")) as Record<string, Route>;
  const read = (file: string, origin: string) =>
    readFileSync(join(dir, file), "utf8").replaceAll("{{origin}}", origin);
  return serveSite(async (req, res, origin) => {
    const path = (req.url ?? "/").split("?")[0] as string;
    const route: Route = routes[path] ?? {
      page: path === "/" ? "index" : path.slice(1).replaceAll("/", "__"),
    };
    if (route.delayMs) await new Promise((resolve) => setTimeout(resolve, route.delayMs));
    if (route.redirect) {
      res.writeHead(route.status ?? 301, { location: route.redirect });
      res.end();
      return;
    }
    let body: string | Buffer | undefined = route.body;
    if (route.file) body = read(route.file, origin);
    if (route.page) {
      try {
        body = read(join("pages", `${route.page}.html`), origin);
      } catch {
        res.writeHead(404, { "content-type": "text/html" });
        res.end("<html><title>Not found</title></html>");
        return;
      }
      if (route.padBytes) body = body.replace("</body>", `<!-- ${"x".repeat(route.padBytes)} --></body>`);
    }
    if (route.gzip && body !== undefined) body = gzipSync(body);
    res.writeHead(route.status ?? 200, {
      "content-type": route.type ?? "text/html; charset=utf-8",
      ...route.headers,
    });
    res.end(body ?? "");
  });
}
