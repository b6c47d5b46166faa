/**
 * One `seo-audit-mcp audit` run: the node:http client, the file report store, the page parser
 * and the command's output as the caller gives them.
 * @module
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { auditCommand, type PageParser } from "../../../src/seo/commands.ts";
import { nodeHttpRequest } from "./crawl-request.ts";
import { cacheDir, fileReportStore } from "./report-store.ts";
import { sqliteCrawlStates } from "./page-facts-sqlite.ts";

export interface AuditRunIo {
  stdout(text: string): void;
  stderr(text: string): void;
  isTTY: boolean;
  signal: AbortSignal;
  pageParser?: PageParser;
}

export async function runAudit(args: string[], io: AuditRunIo): Promise<number> {
  const http = nodeHttpRequest(16);
  try {
    return await auditCommand(args, {
      stdout: io.stdout,
      stderr: io.stderr,
      // Read on first use: the global fetch getter loads undici, which a crawl over node:http never needs.
      fetch: (input, init) => fetch(input, init),
      request: http.request,
      ...(io.pageParser ? { pageParser: io.pageParser } : {}),
      // Loaded on the first rendering audit: puppeteer-core stays out of every other start.
      renderer: () => import("./render-browser.ts").then((m) => m.browserRenderer()()),
      reports: fileReportStore(join(cacheDir(), "reports")),
      crawlStates: sqliteCrawlStates(join(cacheDir(), "reports")),
      now: () => new Date(),
      isTTY: io.isTTY,
      readText: (path) => readFile(path, "utf8"),
      writeText: (path, text) => writeFile(path, text),
      makeDir: async (path) => void (await mkdir(path, { recursive: true })),
      signal: io.signal,
    });
  } finally {
    // Idle keep-alive sockets would otherwise hold the process open.
    http.close();
  }
}
