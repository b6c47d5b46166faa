/**
 * One `seo-audit-mcp audit` run: the node:http client, the file report store, the page parser
 * and the command's output as the caller gives them.
 * @module
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type AuditCommandIo, auditCommand } from "../../../src/seo/commands.ts";
import { nodeHttpRequest } from "./crawl-request.ts";
import { cacheDir, fileReportStore } from "./report-store.ts";
import { sqliteCrawlStates } from "./page-facts-sqlite.ts";

/** The command's output, Ctrl-C and the page parser, as the caller's thread has them. */
type AuditRunIo = Pick<AuditCommandIo, "stdout" | "stderr" | "isTTY" | "signal" | "pageParser">;

export async function runAudit(args: string[], io: AuditRunIo): Promise<number> {
  const http = nodeHttpRequest(16);
  try {
    return await auditCommand(args, {
      ...io,
      // Read on first use: the global fetch getter loads undici, which a crawl over node:http never needs.
      fetch: (input, init) => fetch(input, init),
      request: http.request,
      // Loaded on the first rendering audit: puppeteer-core stays out of every other start.
      renderer: () => import("./render-browser.ts").then((m) => m.browserRenderer()()),
      reports: fileReportStore(join(cacheDir(), "reports")),
      crawlStates: sqliteCrawlStates(join(cacheDir(), "reports")),
      now: () => new Date(),
      readText: (path) => readFile(path, "utf8"),
      writeText: (path, text) => writeFile(path, text),
      makeDir: async (path) => void (await mkdir(path, { recursive: true })),
    });
  } finally {
    // Idle keep-alive sockets would otherwise hold the process open.
    http.close();
  }
}
