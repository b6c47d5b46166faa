/**
 * The SEO tool table: the five tools the server registers, built from injected dependencies.
 * @module
 */
import type { ToolDef } from "../../shared/mcp/tool.ts";
import type { CrawlCapability } from "../audit/audit-request.ts";
import type { SeoConfig } from "../config.ts";
import type { RankStore } from "../providers/tranco.ts";
import type { ProviderDeps } from "../providers/types.ts";
import { createAuditSiteTool, localOnlyAuditSiteTool } from "./audit-site.ts";
import { createAuthorityTool } from "./authority.ts";
import { createKeywordIdeasTool } from "./keyword-ideas.ts";
import { createPageReportTool } from "./page-report.ts";
import { createRankCheckTool } from "./rank-check.ts";

export { reportResources } from "./report-resources.ts";

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
      ? createAuditSiteTool({ ...crawl, now: deps.provider.now, log: deps.log })
      : localOnlyAuditSiteTool(),
    createPageReportTool(deps),
    createKeywordIdeasTool(deps),
    createRankCheckTool(deps),
    createAuthorityTool(deps),
  ];
}
