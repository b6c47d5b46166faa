/**
 * A site as a static dev server serves it: a temporary copy of fixtures/seo/sites/<name> on
 * 127.0.0.1, `{{origin}}` filled in, `/about` answered from `about.html`, 404.html for the rest.
 * Files are read on every request, so a test can edit the copy the way an agent edits a project.
 * @module
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { extname, join, relative, resolve, sep } from "node:path";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".xml": "application/xml",
  ".txt": "text/plain; charset=utf-8",
  ".svg": "image/svg+xml",
};

export interface StaticSite {
  origin: string;
  /** The folder being served (the project's files). */
  root: string;
  /** The file that answers a URL path, or undefined for a 404. */
  fileFor(path: string): string | undefined;
  read(file: string): string;
  write(file: string, text: string): void;
  close(): Promise<void>;
}

function fillOrigin(dir: string, origin: string): void {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) fillOrigin(path, origin);
    else writeFileSync(path, readFileSync(path, "utf8").replaceAll("{{origin}}", origin));
  }
}

function resolveFile(root: string, urlPath: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath.split("?")[0] ?? "/");
  } catch {
    return undefined;
  }
  const base = resolve(root, `.${decoded}`);
  if (base !== root && !base.startsWith(root + sep)) return undefined;
  const candidates = decoded.endsWith("/") ? [join(base, "index.html")] : [base, `${base}.html`];
  return candidates.find((file) => existsSync(file) && statSync(file).isFile());
}

function send(res: ServerResponse, status: number, file: string): void {
  res.writeHead(status, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
  res.end(readFileSync(file));
}

export async function serveStaticCopy(name: string): Promise<StaticSite> {
  const root = mkdtempSync(join(tmpdir(), `site-${name}-`));
  cpSync(join("fixtures/seo/sites", name), root, { recursive: true });
  const server = createServer((req, res) => {
    const file = resolveFile(root, req.url ?? "/");
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { allow: "GET, HEAD" });
      res.end();
    } else if (file) send(res, 200, file);
    else send(res, 404, join(root, "404.html"));
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fillOrigin(root, origin);
  return {
    origin,
    root,
    fileFor: (path) => {
      const file = resolveFile(root, path);
      return file ? relative(root, file) : undefined;
    },
    read: (file) => readFileSync(join(root, file), "utf8"),
    write: (file, text) => writeFileSync(join(root, file), text),
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => {
          rmSync(root, { recursive: true, force: true });
          done();
        });
      }),
  };
}
