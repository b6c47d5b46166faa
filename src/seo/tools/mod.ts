/**
 * The SEO tool table: the five tools the server registers, built from injected dependencies.
 * @module
 */
import type { RendererFactory } from "../render/renderer.ts";
import type { ToolDef } from "../../shared/mcp/tool.ts";
import type { ReportStore } from "../audit/report-store.ts";
import type { SeoConfig } from "../config.ts";
import type { HttpRequest } from "../fetch/http-request.ts";
import type { PageParser } from "../audit/extract.ts";
import type { RankStore } from "../providers/tranco.ts";
import type { ProviderDeps } from "../providers/types.ts";
import { createAuditSiteTool, localOnlyAuditSiteTool } from "./audit-site.ts";
import { createAuthorityTool } from "./authority.ts";
import { createKeywordIdeasTool } from "./keyword-ideas.ts";
import { createPageReportTool } from "./page-report.ts";
import { createRankCheckTool } from "./rank-check.ts";

export { reportResources } from "./report-resources.ts";

/**
 * The site crawl of `seo_audit_site`: what only a local adapter gives (stdio, or a gateway
 * bound to loopback with --allow-audit). Its requests are not behind the gateway's egress
 * guard: auditing http://localhost:3000 is the point of running it locally.
 */
export interface CrawlCapability {
  /** fetch for the crawl (robots.txt, sitemaps, pages when `request` is not given). */
  fetch: typeof fetch;
  /** A lighter HTTP client for the pages (the Node shim's node:http one). */
  request?: HttpRequest;
  /** Where page HTML is parsed, started per audit: the Node shim's parses on a worker thread (default: this thread). */
  pageParser?: PageParser;
  /** Where audits are kept for re-audit comparisons (the Node shim keeps them on disk). */
  reports: ReportStore;
  /** Starts a local headless browser for render: true and keyless lab metrics (the Node shim's). */
  renderer?: RendererFactory;
}

export interface SeoToolDeps {
  /** fetch, clock and sleep for every outbound request of the other tools (pages and providers). */
  provider: ProviderDeps;
  config: SeoConfig;
  /** The crawl; without it seo_audit_site answers LOCAL_ONLY. */
  crawl?: CrawlCapability;
  /** Persistent Tranco answers (the Node shim keeps them on disk); optional. */
  rankStore?: RankStore;
  log(line: string): void;
}

export function createSeoTools(deps: SeoToolDeps): ToolDef[] {
  const { crawl } = deps;
  return [
    crawl
      ? createAuditSiteTool({
          fetch: crawl.fetch,
          ...(crawl.request ? { request: crawl.request } : {}),
          ...(crawl.pageParser ? { pageParser: crawl.pageParser } : {}),
          ...(crawl.renderer ? { renderer: crawl.renderer } : {}),
          now: deps.provider.now,
          reports: crawl.reports,
          log: deps.log,
        })
      : localOnlyAuditSiteTool(),
    createPageReportTool(deps),
    createKeywordIdeasTool(deps),
    createRankCheckTool(deps),
    createAuthorityTool(deps),
  ];
}
