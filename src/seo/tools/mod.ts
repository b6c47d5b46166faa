/**
 * The SEO tool table: the five tools the server registers, built from injected dependencies.
 * @module
 */
import type { ToolDef } from "../../shared/mcp/tool.ts";
import type { ReportStore } from "../audit/report-store.ts";
import type { SeoConfig } from "../config.ts";
import type { HttpRequest } from "../crawl/fetch-page.ts";
import type { RankStore } from "../providers/tranco.ts";
import type { ProviderDeps } from "../providers/types.ts";
import { createAuditSiteTool } from "./audit-site.ts";
import { createAuthorityTool } from "./authority.ts";
import { createKeywordIdeasTool } from "./keyword-ideas.ts";
import { createPageReportTool } from "./page-report.ts";
import { createRankCheckTool } from "./rank-check.ts";

export interface SeoToolDeps {
  /** fetch, clock and sleep for every outbound request (pages and providers). */
  provider: ProviderDeps;
  config: SeoConfig;
  /** Where audits are kept for re-audit comparisons (the Node shim keeps them on disk). */
  reports: ReportStore;
  /** A lighter HTTP client for the crawl (the Node shim's node:http one); default: `provider.fetch`. */
  crawlRequest?: HttpRequest;
  /** Persistent Tranco answers (the Node shim keeps them on disk); optional. */
  rankStore?: RankStore;
  log(line: string): void;
}

export function createSeoTools(deps: SeoToolDeps): ToolDef[] {
  return [
    createAuditSiteTool({
      fetch: deps.provider.fetch,
      ...(deps.crawlRequest ? { request: deps.crawlRequest } : {}),
      now: deps.provider.now,
      reports: deps.reports,
      log: deps.log,
    }),
    createPageReportTool(deps),
    createKeywordIdeasTool(deps),
    createRankCheckTool(deps),
    createAuthorityTool(deps),
  ];
}
