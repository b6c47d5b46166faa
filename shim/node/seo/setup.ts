/**
 * What every Node command of seo-audit-mcp shares: the cache directory, the configuration
 * from the environment, a stderr log scrubbed of the configured keys, provider deps on the
 * global fetch and the local crawl capability (node:http client loaded on the first crawl).
 * @module
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  sleep,
  type CrawlCapability,
  type HttpRequest,
  loadSeoConfig,
  type ProviderDeps,
  type RankStore,
  redact,
  SEO_SERVER_NAME,
  type SeoConfig,
} from "../../../src/seo/mod.ts";
import type { NodeHttp } from "./crawl-request.ts";
import { withPageParser } from "./page-parser.ts";
import { cacheDir, fileReportStore } from "./report-store.ts";
import { fileRankStore } from "./tranco-store.ts";

/** A stderr log that scrubs every configured key, and the configuration it was built with. */
export function configuredLog(): { config: SeoConfig; log: (line: string) => void } {
  let secrets: readonly string[] = [];
  const log = (line: string) => process.stderr.write(`${SEO_SERVER_NAME}: ${redact(line, secrets)}\n`);
  const config = loadSeoConfig({ env: process.env, readText: (path) => readFileSync(path, "utf8"), warn: log });
  secrets = config.secrets;
  return { config, log };
}

export const nodeProvider = (): ProviderDeps => ({
  fetch: globalThis.fetch,
  now: () => new Date(),
  sleep,
});

export const nodeRankStore = (): RankStore => fileRankStore(cacheDir());

// The crawler's node:http client, loaded on the first crawl: node:https costs start-up time.
function lazyCrawlRequest(): HttpRequest {
  let client: Promise<NodeHttp> | undefined;
  return async (url, init) => {
    client ??= import("./crawl-request.ts").then((m) => m.nodeHttpRequest(16));
    return (await client).request(url, init);
  };
}

/** The crawl of seo_audit_site on this machine (pages parsed on a worker), reports kept under the cache directory. */
export function localCrawl(log: (line: string) => void): CrawlCapability {
  return {
    fetch: globalThis.fetch,
    request: lazyCrawlRequest(),
    ...withPageParser((reason) => log(`seo_audit_site: pages are parsed on the main thread (${reason})`)),
    reports: fileReportStore(join(cacheDir(), "reports")),
  };
}
