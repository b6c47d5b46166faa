/**
 * The SEO handler as the Node commands (`mcp`, `gateway`) build it: the configuration from the
 * environment, a stderr log scrubbed of the configured keys, providers on the global fetch, the
 * rank store under the cache directory and, when asked, the local crawl (node:http client
 * loaded on the first crawl, pages parsed on a worker, reports under the cache directory).
 * @module
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  sleep,
  type CrawlCapability,
  createSeoHandler,
  type FetchHandler,
  type HttpRequest,
  loadSeoConfig,
  redact,
  SEO_SERVER_NAME,
  type SeoConfig,
  type SeoHandlerOptions,
} from "../../../src/seo/mod.ts";
import type { NodeHttp } from "./crawl-request.ts";
import { withPageParser } from "./page-parser.ts";
import { cacheDir, fileReportStore } from "./report-store.ts";
import { fileRankStore } from "./tranco-store.ts";

/** A stderr log that scrubs every configured key, and the configuration it was built with. */
function configuredLog(): { config: SeoConfig; log: (line: string) => void } {
  let secrets: readonly string[] = [];
  const log = (line: string) => process.stderr.write(`${SEO_SERVER_NAME}: ${redact(line, secrets)}\n`);
  const config = loadSeoConfig({ env: process.env, readText: (path) => readFileSync(path, "utf8"), warn: log });
  secrets = config.secrets;
  return { config, log };
}

// The crawler's node:http client, loaded on the first crawl: node:https costs start-up time.
function lazyCrawlRequest(): HttpRequest {
  let client: Promise<NodeHttp> | undefined;
  return async (url, init) => {
    client ??= import("./crawl-request.ts").then((m) => m.nodeHttpRequest(16));
    return (await client).request(url, init);
  };
}

/** The crawl of seo_audit_site on this machine (pages parsed on a worker), reports kept under the cache directory. */
function localCrawl(log: (line: string) => void): CrawlCapability {
  return {
    fetch: globalThis.fetch,
    request: lazyCrawlRequest(),
    ...withPageParser((reason) => log(`seo_audit_site: pages are parsed on the main thread (${reason})`)),
    reports: fileReportStore(join(cacheDir(), "reports")),
    // Loaded on the first rendering audit: puppeteer-core stays out of every other start.
    renderer: () => import("./render-browser.ts").then((m) => m.browserRenderer()()),
  };
}

/** What a command decides; the rest comes from this machine. */
export type NodeSeoOptions = Omit<SeoHandlerOptions, "provider" | "config" | "crawl" | "rankStore" | "log"> & { crawl: boolean };

/** The handler, and the log it writes to (the command's own lines go there too). */
export function nodeSeoHandler({ crawl, ...options }: NodeSeoOptions): { handler: FetchHandler; log: (line: string) => void } {
  const { config, log } = configuredLog();
  const handler = createSeoHandler({
    provider: { fetch: globalThis.fetch, now: () => new Date(), sleep },
    config,
    ...(crawl ? { crawl: localCrawl(log) } : {}),
    rankStore: fileRankStore(cacheDir()),
    ...options,
    log,
  });
  return { handler, log };
}
